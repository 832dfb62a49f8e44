import { createHash } from 'node:crypto';

import {
  CARD_LAYOUTS,
  cardFaces,
  decompressionBomb,
  pdfDocument,
  renderFace,
  scannedPage,
} from '../../bench/document-corpus';
import { waitForStatus } from '../support/case-journeys';
import type { JsonObject } from '../support/case-journeys';
import { benefitVerificationRequest, syntheticPatient } from '../support/case-requests';
import { BLUE_HORIZON_CARD, cardImage } from '../support/insurance-cards';
import { bearer, eventually, startTestApp } from '../support/test-app';
import type { TestAccount, TestApp } from '../support/test-app';
import type { TestWorker } from '../support/workers';

const PATH = '/benefit-verification';

const base64 = (bytes: Buffer) => bytes.toString('base64');

describe('a benefit verification from a photo of the insurance card alone', () => {
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

  const submitCards = async (...cards: Buffer[]) => submitCardsFor(syntheticPatient(), ...cards);
  const submitCardsFor = async (patient: object, ...cards: Buffer[]) => {
    const body = benefitVerificationRequest({
      patient,
      insurance: cards.map((card) => ({ file_content: base64(card) })),
    });
    delete (body as { insurance_content?: unknown }).insurance_content;
    const response = await testApp.http().post(PATH).set(bearer(account.keys.provider)).send(body);
    expect(response.status).toBe(201);
    return response.body.data as JsonObject;
  };
  const waitFor = (id: string, status: string) =>
    waitForStatus(testApp, account.keys.provider, PATH, id, status);
  /** A BV whose only insurance document is a letter, waiting for a person to verify it. */
  const notACardInManualVerification = async () => {
    const letter = await scannedPage(['Dear colleague,', 'thank you for seeing our patient on Tuesday.']);
    const created = await submitCards(letter.scan);
    await waitFor(created.id as string, 'awaiting_review');
    return created;
  };

  it('completes with the plan the card names, the card read by OCR', async () => {
    const created = await submitCards(await cardImage());
    const completed = await waitFor(created.id as string, 'completed');
    expect(completed.outcome).toMatchObject({
      coverage_status: 'covered',
      payer_name: 'Blue Horizon Health',
      plan_name: 'Blue Horizon PPO Select',
      bin: '999901',
      pcn: 'SBXBHHPPO',
    });
    expect((completed.documents as JsonObject[])[0].reading).toMatchObject({
      status: 'read',
      method: 'ocr',
      pages: 1,
      pages_read: 1,
      reason: null,
    });
  });

  it('shows the card as read: each field with its confidence, the card the source of every value used', async () => {
    const completed = await waitFor((await submitCards(await cardImage())).id as string, 'completed');

    const card = completed.insurance_card as JsonObject;
    expect(card.scanned).toMatchObject({
      member_id: { value: 'W123456789', confidence: expect.any(Number) },
      rx_bin: { value: '999901', confidence: expect.any(Number) },
    });
    expect((card.scanned as Record<string, JsonObject>).member_id.confidence).toBeGreaterThanOrEqual(0.85);
    expect(card).toMatchObject({
      discrete: null,
      used: {
        member_id: { value: 'W123456789', source: 'card' },
        rx_bin: { value: '999901', source: 'card' },
      },
      conflicts: [],
    });
  });

  it('keeps discrete data first, field by field: the card of the same member fills the gaps, and a group that differs is a conflict', async () => {
    const body = benefitVerificationRequest({
      insurance: [{ file_content: base64(await cardImage()) }],
      insurance_content: { payer: 'Blue Horizon Health', member_id: 'W123456789', group_number: '0200' },
    });
    const created = await testApp.http().post(PATH).set(bearer(account.keys.provider)).send(body);

    const completed = await waitFor(created.body.data.id as string, 'completed');

    expect(completed.insurance_card).toMatchObject({
      discrete: { payer: 'Blue Horizon Health', member_id: 'W123456789', group_number: '0200' },
      used: {
        group_number: { value: '0200', source: 'discrete' },
        rx_pcn: { value: 'SBXBHHPPO', source: 'card' },
      },
      conflicts: [{ field: 'group_number', discrete: '0200', card: '0100' }],
    });
    expect(completed.outcome).toMatchObject({ coverage_status: 'covered' });
  });

  it('completes from a card and the part of the insurance data the clinic typed, the card giving the member id', async () => {
    const body = benefitVerificationRequest({
      insurance: [{ file_content: base64(await cardImage()) }],
      insurance_content: { payer: 'Blue Horizon Health' },
    });
    const created = await testApp.http().post(PATH).set(bearer(account.keys.provider)).send(body);
    expect(created.status).toBe(201);

    const completed = await waitFor(created.body.data.id as string, 'completed');

    expect(completed.insurance_card).toMatchObject({
      discrete: { payer: 'Blue Horizon Health' },
      used: {
        payer: { value: 'Blue Horizon Health', source: 'discrete' },
        member_id: { value: 'W123456789', source: 'card' },
      },
    });
    expect(completed.outcome).toMatchObject({
      coverage_status: 'covered',
      plan_name: 'Blue Horizon PPO Select',
    });
  });

  it('goes to manual verification when the typed part leaves the member id to a card that is not one', async () => {
    const letter = await scannedPage(['Dear colleague,', 'thank you for seeing our patient on Tuesday.']);
    const body = benefitVerificationRequest({
      insurance: [{ file_content: base64(letter.scan) }],
      insurance_content: { payer: 'Blue Horizon Health' },
    });
    const created = await testApp.http().post(PATH).set(bearer(account.keys.provider)).send(body);

    const inReview = await waitFor(created.body.data.id as string, 'awaiting_review');

    expect(latestReason(inReview)).toMatch(
      /^The insurance documents \(insurance_1\) read clearly but show no insurance card field/,
    );
  });

  it("never fills the gaps from another member's card: the member id that differs is a conflict", async () => {
    const body = benefitVerificationRequest({
      insurance: [{ file_content: base64(await cardImage()) }],
      insurance_content: { payer: 'Blue Horizon Health', member_id: 'W999999999' },
    });
    const created = await testApp.http().post(PATH).set(bearer(account.keys.provider)).send(body);

    const completed = await waitFor(created.body.data.id as string, 'completed');

    expect(completed.insurance_card).toMatchObject({
      used: { member_id: { value: 'W999999999', source: 'discrete' } },
      conflicts: [{ field: 'member_id', discrete: 'W999999999', card: 'W123456789' }],
    });
    expect((completed.insurance_card as JsonObject).used).not.toHaveProperty('rx_pcn');
  });

  it("keeps a second plan's card apart, using the first card sent and listing the other", async () => {
    const secondary = await cardImage({
      payerName: 'Lakeshore Mutual',
      planName: 'Secondary Rx',
      memberId: 'W246813579',
      groupNumber: '7700',
      rxBin: '610014',
      rxPcn: 'LKSMRX',
      rxGroup: 'LKS7700',
    });
    const created = await submitCards(await cardImage(), secondary);

    const completed = await waitFor(created.id as string, 'completed');

    expect(completed.insurance_card).toMatchObject({
      used: { member_id: { value: 'W123456789', source: 'card' } },
      other_cards: [{ payer_name: 'Lakeshore Mutual', member_id: 'W246813579' }],
    });
  });

  it('goes to manual verification when the image is not a card, naming the document and saying it is no card', async () => {
    const letter = await scannedPage(['Dear colleague,', 'thank you for seeing our patient on Tuesday.']);
    const created = await submitCards(letter.scan);
    const inReview = await waitFor(created.id as string, 'awaiting_review');
    const reason = latestReason(inReview);
    expect(reason).toMatch(
      /^The insurance documents \(insurance_1\) read clearly but show no insurance card field/,
    );
    expect(reason).toMatch(/insurance_content/);
    expect((inReview.insurance_card as JsonObject).error).toEqual({
      code: 'insurance_document_not_a_card',
      message: reason,
    });
  });

  it("uses the insurance a reviewer confirmed for a card that could not be read, and shows them as the reviewer's", async () => {
    const created = await notACardInManualVerification();

    const recorded = await testApp
      .http()
      .post(`${PATH}/${created.id as string}/outcome`)
      .set(bearer(account.keys.reviewer))
      .send({
        status: 'completed',
        coverage_status: 'covered',
        insurance: { payer: 'Blue Horizon Health', member_id: 'W123456789', rx_bin: '999901' },
      });

    expect(recorded.status).toBe(200);
    const completed = await waitFor(created.id as string, 'completed');
    expect(completed.outcome).toMatchObject({
      verified_manually: true,
      payer_name: 'Blue Horizon Health',
      bin: '999901',
      insurance_confirmed_by_reviewer: { member_id: 'W123456789' },
    });
    expect((completed.insurance_card as JsonObject).used).toMatchObject({
      member_id: { value: 'W123456789', source: 'reviewer' },
    });
  });

  it('refuses confirmed insurance with no field, naming it', async () => {
    const created = await notACardInManualVerification();

    const refused = await testApp
      .http()
      .post(`${PATH}/${created.id as string}/outcome`)
      .set(bearer(account.keys.reviewer))
      .send({ status: 'completed', coverage_status: 'covered', insurance: {} });

    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body.error.details)).toContain('insurance.payer');
  });

  it('goes to manual verification when the image cannot be decoded, the document showing why', async () => {
    const truncated = (await cardImage()).subarray(0, 2000);
    const created = await submitCards(truncated);
    const inReview = await waitFor(created.id as string, 'awaiting_review');
    expect((inReview.documents as JsonObject[])[0].reading).toMatchObject({
      status: 'unreadable',
      reason: 'The PNG image could not be decoded (truncated or corrupt).',
    });
    expect((inReview.insurance_card as JsonObject).error).toMatchObject({
      code: 'insurance_card_unreadable',
      message: expect.stringMatching(
        /^No insurance card field could be read from the insurance documents \(insurance_1\)/,
      ),
    });
  });

  it('refuses a decompression bomb without decoding it, while the cases sent with it finish', async () => {
    const bomb = await submitCards(decompressionBomb());
    const others = await Promise.all([1, 2, 3].map(async () => submitCards(await cardImage())));

    const inReview = await waitFor(bomb.id as string, 'awaiting_review');

    expect((inReview.documents as JsonObject[])[0].reading).toMatchObject({
      status: 'unreadable',
      reason: expect.stringMatching(/over the 40,000,000-pixel limit/),
    });
    for (const other of others) await waitFor(other.id as string, 'completed');
  });

  it('goes to manual verification with a card sent as a PDF that needs a password, saying so', async () => {
    const encrypted = pdfDocument([{ lines: ['Member ID: W123456789'] }], { encrypted: true });

    const inReview = await waitFor((await submitCards(encrypted)).id as string, 'awaiting_review');

    expect((inReview.documents as JsonObject[])[0].reading).toMatchObject({
      status: 'unreadable',
      reason: 'The PDF is protected by a password, so it could not be opened.',
    });
  });

  it('keeps one reading of a card sent again with another case', async () => {
    const card = await renderFace(
      cardFaces({ ...BLUE_HORIZON_CARD, memberId: 'W555000111' }, CARD_LAYOUTS[1])[0],
    );
    await waitFor((await submitCards(card)).id as string, 'completed');
    await waitFor((await submitCards(card)).id as string, 'completed');
    const sha256 = createHash('sha256').update(card).digest('hex');
    const count = async (table: string) =>
      Number(
        (
          await testApp.db.query<{ count: string }>(
            `SELECT count(*)::text AS count FROM ${table} WHERE account_id = $1 AND sha256 = $2`,
            [account.accountId, sha256],
          )
        )[0].count,
      );
    expect([await count('case_documents'), await count('document_readings')]).toEqual([2, 1]);
  });

  it("leaves no reading of an erased patient's card behind", async () => {
    const card = await renderFace(
      cardFaces({ ...BLUE_HORIZON_CARD, memberId: 'W777000222' }, CARD_LAYOUTS[0])[0],
    );
    const patient = syntheticPatient();
    await waitFor((await submitCardsFor(patient, card)).id as string, 'completed');
    const sha256 = createHash('sha256').update(card).digest('hex');
    const readings = () =>
      testApp.db.query('SELECT sha256 FROM document_readings WHERE account_id = $1 AND sha256 = $2', [
        account.accountId,
        sha256,
      ]);
    expect(await readings()).toHaveLength(1);

    const requested = await testApp
      .http()
      .post('/patients/erasure')
      .set(bearer(account.keys.admin))
      .send({ patient_internal_id: patient.internal_id });
    expect(requested.status).toBe(202);
    await eventually(async () => {
      const read = await testApp
        .http()
        .get(`/patients/erasures/${requested.body.data.id}`)
        .set(bearer(account.keys.admin));
      return read.body.data?.status === 'completed' || undefined;
    }, 60_000);
    expect(await readings()).toEqual([]);
  });
});

/** Why the case made its latest move, as its status history records it. */
function latestReason(record: JsonObject): string {
  const history = record.status_history as Array<{ reason: string | null }>;
  return history[history.length - 1].reason ?? '';
}

describe("a case's budget of OCR pages", () => {
  let testApp: TestApp;
  let worker: TestWorker;
  let account: TestAccount;

  beforeAll(async () => {
    testApp = await startTestApp({ DOCUMENT_OCR_PAGES_PER_CASE: '1' });
    worker = await testApp.startWorker();
    account = await testApp.createAccount();
  });
  afterAll(async () => {
    await worker.stop();
    await testApp.close();
  });

  it('leaves the documents past the budget not read, saying why, and reads them for a later case', async () => {
    const front = await cardImage({ memberId: 'W424242420' });
    const other = await cardImage({ memberId: 'W525252520' });
    const submit = async (...cards: Buffer[]) => {
      const body = benefitVerificationRequest({
        insurance: cards.map((card) => ({ file_content: base64(card) })),
      });
      const response = await testApp.http().post(PATH).set(bearer(account.keys.provider)).send(body);
      return waitForStatus(
        testApp,
        account.keys.provider,
        PATH,
        response.body.data.id as string,
        'completed',
      );
    };

    const both = await submit(front, other);
    const alone = await submit(other);

    expect(
      (both.documents as JsonObject[]).map((document) => (document.reading as JsonObject).status),
    ).toEqual(['read', 'not_read']);
    expect(((both.documents as JsonObject[])[1].reading as JsonObject).reason).toBe(
      "Not read: the case's other documents used up its OCR budget (1 pages).",
    );
    expect(((alone.documents as JsonObject[])[0].reading as JsonObject).status).toBe('read');
  });
});
