import { pdfDocument } from '../../bench/document-corpus';
import type { JsonObject } from '../support/case-journeys';
import { benefitVerificationRequest, syntheticPatient } from '../support/case-requests';
import { cardImage } from '../support/insurance-cards';
import { bearer, startTestApp } from '../support/test-app';
import type { TestAccount, TestApp } from '../support/test-app';

const PATH = '/benefit-verification';

describe('downloading a document of a case', () => {
  let testApp: TestApp;
  let account: TestAccount;
  let card: Buffer;
  let caseId: string;
  let documentId: string;

  beforeAll(async () => {
    testApp = await startTestApp();
    account = await testApp.createAccount();
    card = await cardImage();
    ({ caseId, documentId } = await submitWithInsuranceDocument(card));
  });
  afterAll(async () => {
    await testApp.close();
  });

  /** A benefit verification with one insurance document; the case holds it by the id returned. */
  const submitWithInsuranceDocument = async (bytes: Buffer) => {
    const created = await testApp
      .http()
      .post(PATH)
      .set(bearer(account.keys.provider))
      .send(
        benefitVerificationRequest({
          patient: syntheticPatient(),
          insurance: [{ file_content: bytes.toString('base64') }],
        }),
      );
    expect(created.status).toBe(201);
    const insurance = (created.body.data.request as JsonObject).insurance as JsonObject[];
    return { caseId: created.body.data.id as string, documentId: insurance[0]!.document_id as string };
  };

  const download = (key: string, id = caseId, document = documentId) =>
    testApp.http().get(`${PATH}/${id}/documents/${document}`).set(bearer(key)).buffer(true);

  it('returns the bytes as sent, as an attachment the browser may neither sniff nor cache', async () => {
    const response = await download(account.keys.provider);

    expect(response.status).toBe(200);
    expect(Buffer.compare(response.body as Buffer, card)).toBe(0);
    expect(response.headers['content-type']).toBe('image/png');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="insurance_1"; filename*=UTF-8''insurance_1`,
    );
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it("names the type the bytes show, not the sender's: a PDF sent as a card is served as a PDF", async () => {
    const pdf = pdfDocument([{ lines: ['Member ID W123456789'] }]);
    const sent = await submitWithInsuranceDocument(pdf);

    const response = await download(account.keys.provider, sent.caseId, sent.documentId);

    expect(response.headers['content-type']).toBe('application/pdf');
    expect(Buffer.compare(response.body as Buffer, pdf)).toBe(0);
  });

  it("is open to the account's reviewers and admins too", async () => {
    expect((await download(account.keys.reviewer)).status).toBe(200);
    expect((await download(account.keys.admin)).status).toBe(200);
  });

  it('records each download in the audit trail, naming the case and the document', async () => {
    await download(account.keys.provider);

    const audit = await testApp
      .http()
      .get('/audit-events')
      .query({ target_id: caseId })
      .set(bearer(account.keys.admin));
    expect(audit.body.data.data).toContainEqual(
      expect.objectContaining({
        action: 'document.read',
        target: { object: 'benefit_verification', id: caseId },
        details: { document_id: documentId },
      }),
    );
  });

  it('answers 404 to another account, as if the case did not exist, and never sends the bytes', async () => {
    const stranger = await testApp.createAccount('Another clinic');

    const response = await download(stranger.keys.admin);

    expect(response.status).toBe(404);
    expect(Buffer.isBuffer(response.body)).toBe(false);
  });

  it('answers 404 for a document id this case does not hold', async () => {
    const response = await download(account.keys.provider, caseId, 'doc_00000000000000000000000000');
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({
      status: 'error',
      error: { code: 'not_found' },
    });
  });
});
