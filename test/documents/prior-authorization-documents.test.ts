import { pdfDocument, scannedPage } from '../../bench/document-corpus';
import { waitForStatus } from '../support/case-journeys';
import type { JsonObject } from '../support/case-journeys';
import { priorAuthorizationRequest, syntheticPatient } from '../support/case-requests';
import { cardImage } from '../support/insurance-cards';
import { bearer, startTestApp } from '../support/test-app';
import type { TestAccount, TestApp } from '../support/test-app';
import type { TestWorker } from '../support/workers';

const PATH = '/prior-authorization';

describe('a prior authorization from the documents a clinic sends: a card photo, a PDF note', () => {
  let testApp: TestApp;
  let worker: TestWorker;
  let account: TestAccount;

  beforeAll(async () => {
    testApp = await startTestApp();
    worker = await testApp.startWorker();
    account = await testApp.createAccount();
  });
  afterAll(async () => {
    await worker.stop();
    await testApp.close();
  });

  const submitCard = async (card: Buffer) => {
    const body = priorAuthorizationRequest({
      patient: syntheticPatient({ insurance: [{ file_content: card.toString('base64') }] }),
    });
    delete (body as { insurance_content?: unknown }).insurance_content;
    const response = await testApp.http().post(PATH).set(bearer(account.keys.provider)).send(body);
    expect(response.status).toBe(201);
    return response.body.data.id as string;
  };
  const waitFor = (id: string, status: string) =>
    waitForStatus(testApp, account.keys.provider, PATH, id, status);

  it('finds the plan the card names and goes to clinical review, the card read by OCR', async () => {
    const inReview = await waitFor(await submitCard(await cardImage()), 'awaiting_review');

    expect(inReview.plan).toMatchObject({
      payer_name: 'Blue Horizon Health',
      plan_name: 'Blue Horizon PPO Select',
      member_id: 'W123456789',
    });
    expect((inReview.documents as JsonObject[])[0].reading).toMatchObject({ status: 'read', method: 'ocr' });
  });

  it('fails as insurance_document_not_a_card when the only insurance document is a letter', async () => {
    const letter = await scannedPage(['Dear colleague,', 'thank you for seeing our patient on Tuesday.']);

    const failed = await waitFor(await submitCard(letter.scan), 'failed');

    expect(failed.failure).toEqual({
      code: 'insurance_document_not_a_card',
      message: expect.stringMatching(
        /^The insurance documents \(patient_insurance_1\) read clearly.*insurance_content/,
      ),
    });
    expect(failed.criteria ?? []).toEqual([]);
  });

  it('fails as insurance_card_member_id_unreadable when the card shows its plan but not its member id', async () => {
    const withoutMemberId = await cardImage({ memberId: '' });

    const failed = await waitFor(await submitCard(withoutMemberId), 'failed');

    expect(failed.failure).toMatchObject({ code: 'insurance_card_member_id_unreadable' });
    expect((failed.failure as JsonObject).message).toMatch(/unread: [^)]*member_id/);
  });

  const NOTE = 'Patient has taken metformin for 6 months; A1c 8.1 %.';
  const NOTE_DATE = '2026-10-02T10:00:00Z';
  const criteriaOf = async (overrides: Record<string, unknown>) => {
    const response = await testApp
      .http()
      .post(PATH)
      .set(bearer(account.keys.provider))
      .send(priorAuthorizationRequest({ evidence: [], visit_notes: [], ...overrides }));
    const inReview = await waitFor(response.body.data.id as string, 'awaiting_review');
    return inReview.criteria as JsonObject[];
  };
  const answers = (criteria: JsonObject[]) => criteria.map((criterion) => [criterion.id, criterion.answer]);

  it('answers the criteria from a PDF progress note as from the same note sent as text, citing the note', async () => {
    const asText = await criteriaOf({ visit_notes: [{ content: NOTE, created_at: NOTE_DATE }] });
    const withoutNote = await criteriaOf({});
    const pdf = pdfDocument([{ lines: ['Progress note', NOTE] }]);

    const fromPdf = await criteriaOf({
      evidence: [
        {
          title: 'Progress note',
          date_created: NOTE_DATE,
          asset: { fileType: 'application/pdf', fileContent: pdf.toString('base64') },
        },
      ],
    });

    expect(answers(fromPdf)).toEqual(answers(asText));
    expect(answers(fromPdf)).not.toEqual(answers(withoutNote));
    expect(fromPdf.map((criterion) => criterion.source)).toContainEqual(
      expect.stringContaining('Progress note'),
    );
  });

  it('tells the reviewer which evidence the answers could not see, and why', async () => {
    const locked = pdfDocument([{ lines: ['Progress note', NOTE] }], { encrypted: true });
    const response = await testApp
      .http()
      .post(PATH)
      .set(bearer(account.keys.provider))
      .send(
        priorAuthorizationRequest({
          visit_notes: [],
          evidence: [
            {
              title: 'Progress note',
              date_created: NOTE_DATE,
              asset: { fileType: 'application/pdf', fileContent: locked.toString('base64') },
            },
          ],
        }),
      );

    const inReview = await waitFor(response.body.data.id as string, 'awaiting_review');

    expect(inReview.unread_evidence).toEqual([
      expect.objectContaining({
        title: 'Progress note',
        reason: 'The PDF is protected by a password, so it could not be opened.',
      }),
    ]);
  });
});
