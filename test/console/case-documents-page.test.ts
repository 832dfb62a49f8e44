import sharp from 'sharp';

import { pdfDocument, scannedPage } from '../../bench/document-corpus';
import { waitForStatus } from '../support/case-journeys';
import { benefitVerificationRequest } from '../support/case-requests';
import { consoleGet, signedInPerson, submitCase } from '../support/console-cases';
import type { ConsoleBrowser } from '../support/console-session';
import { cardImage } from '../support/insurance-cards';
import { startTestApp } from '../support/test-app';
import type { TestAccount, TestApp } from '../support/test-app';
import type { TestWorker } from '../support/workers';

const API_PATH = '/benefit-verification';
const PAGES = '/console/benefit-verifications';

describe("a case's documents in the console", () => {
  let testApp: TestApp;
  let worker: TestWorker;
  let account: TestAccount;
  let reviewer: ConsoleBrowser;
  let card: Buffer;
  let caseId: string;

  beforeAll(async () => {
    testApp = await startTestApp();
    worker = await testApp.startWorker();
    account = await testApp.createAccount('Clinic Documents');
    reviewer = await signedInPerson(testApp, account.accountId, ['reviewer']);
    card = await cardImage();
    const body = benefitVerificationRequest({ insurance: [{ file_content: card.toString('base64') }] });
    delete (body as { insurance_content?: unknown }).insurance_content;
    caseId = (await submitCase(testApp, account.keys.provider, API_PATH, body)).id as string;
    await waitForStatus(testApp, account.keys.provider, API_PATH, caseId, 'completed');
  });
  afterAll(async () => {
    await worker.stop();
    await testApp.close();
  });

  const casePage = (id = caseId, browser = reviewer) => consoleGet(testApp, browser, `${PAGES}/${id}`);
  const previewPath = (pageText: string) => /<img\s+src="([^"]+)"/.exec(pageText)?.[1];

  it('shows the fields read from the card with their confidence, and where each value used came from', async () => {
    const page = await casePage();

    const section = page.text.slice(page.text.indexOf('id="insurance-card-heading"'));
    expect(section).toMatch(/<td>Member id<\/td>\s*<td><code>W123456789<\/code><\/td>\s*<td>\s*\d+ %/);
    expect(section).toContain('member_id: W123456789 (read from the card)');
  });

  it('shows each document with its reading, and the image of its page the reader kept', async () => {
    const page = await casePage();

    expect(page.text).toMatch(/badge-ok">read<\/span> ocr, 1\s+of 1\s+pages, \d+ % sure/);
    expect(previewPath(page.text)).toMatch(
      new RegExp(`^${PAGES}/${caseId}/documents/doc_[0-9a-z]+/pages/1$`),
    );
  });

  it("serves the page's image as a small JPEG made by the worker, inline, never cached, sniffed or active, and audits it", async () => {
    const page = await casePage();

    const image = await consoleGet(testApp, reviewer, previewPath(page.text)!).buffer(true);

    expect(image.status).toBe(200);
    const { format, width, height } = await sharp(image.body as Buffer).metadata();
    expect(format).toBe('jpeg');
    expect(Math.max(width!, height!)).toBeLessThanOrEqual(1000);
    expect(image.headers).toMatchObject({
      'content-type': 'image/jpeg',
      'content-disposition': 'inline',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox; frame-ancestors 'none'",
    });
    const reads = await testApp.db.query<{ actor_type: string }>(
      `SELECT actor_type FROM audit_events WHERE action = 'document.read' AND target_id = $1`,
      [caseId],
    );
    expect(reads.map((event) => event.actor_type)).toContain('user');
  });

  it('offers each document as a download, and shows the pages of a PDF as images', async () => {
    const letter = pdfDocument([
      { lines: ['Dear colleague,', 'thank you for seeing our patient.'] },
      { lines: ['Page two of the letter.'] },
    ]);
    const body = benefitVerificationRequest({ insurance: [{ file_content: letter.toString('base64') }] });
    const { id } = await submitCase(testApp, account.keys.provider, API_PATH, body);
    await waitForStatus(testApp, account.keys.provider, API_PATH, id as string, 'completed');
    const page = await casePage(id as string);
    const link = new RegExp(`href="(${PAGES}/${id as string}/documents/doc_[0-9a-z]+)"`).exec(page.text)![1]!;

    const download = await consoleGet(testApp, reviewer, link);

    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.headers['content-disposition']).toBe('attachment');
    expect([...page.text.matchAll(/<img\s+src="([^"]+)"/g)].map((match) => match[1])).toEqual([
      `${link}/pages/1`,
      `${link}/pages/2`,
    ]);
    const secondPage = await consoleGet(testApp, reviewer, `${link}/pages/2`).buffer(true);
    expect(secondPage.headers['content-type']).toBe('image/jpeg');
    expect((await consoleGet(testApp, reviewer, `${link}/pages/3`)).status).toBe(404);
  });

  it('says beside the card why it could not give the member, as the case does', async () => {
    const letter = await scannedPage(['Dear colleague,', 'thank you for seeing our patient on Tuesday.']);
    const body = benefitVerificationRequest({
      insurance: [{ file_content: letter.scan.toString('base64') }],
    });
    delete (body as { insurance_content?: unknown }).insurance_content;
    const { id } = await submitCase(testApp, account.keys.provider, API_PATH, body);
    await waitForStatus(testApp, account.keys.provider, API_PATH, id as string, 'awaiting_review');

    const page = await casePage(id as string);

    const section = page.text.slice(page.text.indexOf('id="insurance-card-heading"'));
    expect(section).toMatch(
      /class="notice notice-error" role="status">\s*The insurance documents \(insurance_1\) read clearly but show no insurance card field/,
    );
  });

  it("never shows another account's document, nor any document to an operator", async () => {
    const page = await casePage();
    const other = await testApp.createAccount('Other clinic');
    const stranger = await signedInPerson(testApp, other.accountId, ['reviewer']);

    const operator = await signedInPerson(testApp, account.accountId, ['operator']);

    const pageImage = previewPath(page.text)!;
    const download = pageImage.replace(/\/pages\/1$/, '');
    for (const path of [pageImage, download]) {
      expect((await consoleGet(testApp, stranger, path)).status).toBe(404);
      expect((await consoleGet(testApp, operator, path)).status).toBe(404);
    }
  });
});
