import { scannedPage } from '../../bench/document-corpus';
import { waitForStatus } from '../support/case-journeys';
import type { JsonObject } from '../support/case-journeys';
import { priorAuthorizationRequest, syntheticPatient } from '../support/case-requests';
import { cardImage } from '../support/insurance-cards';
import { bearer, startTestApp } from '../support/test-app';
import type { TestAccount, TestApp } from '../support/test-app';
import type { TestWorker } from '../support/workers';

const PATH = '/prior-authorization';

describe('a prior authorization from a photo of the insurance card alone', () => {
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

  it('fails as insurance_card_unreadable when the only insurance document is not a card', async () => {
    const letter = await scannedPage(['Dear colleague,', 'thank you for seeing our patient on Tuesday.']);

    const failed = await waitFor(await submitCard(letter.scan), 'failed');

    expect(failed.failure).toEqual({
      code: 'insurance_card_unreadable',
      message: expect.stringMatching(/^No insurance card field could be read.*insurance_content/),
    });
    expect(failed.criteria ?? []).toEqual([]);
  });

  it('fails as insurance_card_member_id_unreadable when the card shows its plan but not its member id', async () => {
    const withoutMemberId = await cardImage({ memberId: '' });

    const failed = await waitFor(await submitCard(withoutMemberId), 'failed');

    expect(failed.failure).toMatchObject({ code: 'insurance_card_member_id_unreadable' });
    expect((failed.failure as JsonObject).message).toMatch(/unread: [^)]*member_id/);
  });
});
