import sharp from 'sharp';

import { pdfDocument, scannedPage } from '../../bench/document-corpus';
import { faxedLetter } from '../../bench/faxed-letter';
import type { FaxPage } from '../../bench/faxed-letter';
import { DRUG_CASES } from '../clinical/drug-cases';
import { waitForStatus } from '../support/case-journeys';
import type { JsonObject } from '../support/case-journeys';
import { requestFrom } from '../support/clinical-requests';
import { bearer, startTestApp } from '../support/test-app';
import type { TestAccount, TestApp } from '../support/test-app';
import type { TestWorker } from '../support/workers';

const PATH = '/clinical-eligibility';

/** The catalog's qualifying Wegovy record, its visit note sent as a document instead. */
const WEGOVY = DRUG_CASES.find((drugCase) => drugCase.drug === 'Wegovy')!;
const NOTE_DATE = WEGOVY.qualifying.visitNotes![0].created_at;
const NOTE_LINES = [
  'Progress note',
  'BMI 28.2 kg/m2. Counselled on a reduced-calorie diet',
  'and increased physical activity.',
];

/** The request with the note as an evidence asset of the given type and bytes. */
function requestWithNote(fileType: string, bytes: Buffer): Record<string, unknown> {
  const request = requestFrom('Wegovy', {
    ...WEGOVY.qualifying,
    visitNotes: [],
    evidence: [{ title: 'Progress note', date_created: NOTE_DATE, text: NOTE_LINES.join('\n') }],
  });
  const [note] = request.evidence as Array<Record<string, unknown>>;
  note.asset = { fileType, fileContent: bytes.toString('base64') };
  return request;
}

/** Per drug, its status and every criterion's status: what a reader of the outcome acts on. */
function statuses(outcome: JsonObject): unknown {
  return (outcome.results as JsonObject[]).map((result) => ({
    drug: result.drug,
    status: result.status,
    criteria: (result.criteria as JsonObject[]).map((criterion) => [criterion.id, criterion.status]),
  }));
}

/** Ozempic's criteria met by a referral letter: the metformin trial on its first page, the A1c in a lab table on its second. */
const REFERRAL: readonly FaxPage[] = [
  {
    lines: [
      'Northside Endocrinology',
      'Dear colleague,',
      'I am writing about my patient with type 2 diabetes mellitus.',
      'She has taken metformin 1000 mg twice daily for 8 months',
      'without reaching her goal. We request coverage of Ozempic.',
    ],
  },
  {
    lines: ['Laboratory results'],
    table: [
      ['Test', 'Result', 'Units'],
      ['Hemoglobin A1c', '8.9', '%'],
      ['Glucose', '162', 'mg/dL'],
    ],
  },
];

describe('clinical eligibility from notes sent as PDFs, scans and faxes', () => {
  let testApp: TestApp;
  let worker: TestWorker;
  let account: TestAccount;
  let asText: JsonObject;

  beforeAll(async () => {
    testApp = await startTestApp();
    worker = await testApp.startWorker();
    account = await testApp.createAccount();
    asText = await check(requestWithNote('text/plain', Buffer.from(NOTE_LINES.join('\n'))));
  });
  afterAll(async () => {
    await worker.stop();
    await testApp.close();
  });

  async function check(body: Record<string, unknown>): Promise<JsonObject> {
    const response = await testApp.http().post(PATH).set(bearer(account.keys.provider)).send(body);
    expect(response.status).toBe(201);
    const id = response.body.clinical_elgibility_id as string;
    return waitForStatus(testApp, account.keys.provider, PATH, id, 'completed');
  }
  const readingOf = (record: JsonObject) => (record.documents as Array<{ reading: JsonObject }>)[0].reading;

  it('qualifies with the note as text, the baseline every document form must match', () => {
    expect(statuses(asText.outcome as JsonObject)).toEqual([
      expect.objectContaining({ drug: 'Wegovy', status: 'qualified' }),
    ]);
  });

  it('gives the same statuses with the note as a PDF with a text layer', async () => {
    const record = await check(requestWithNote('application/pdf', pdfDocument([{ lines: NOTE_LINES }])));
    expect(statuses(record.outcome as JsonObject)).toEqual(statuses(asText.outcome as JsonObject));
    expect(readingOf(record)).toMatchObject({ status: 'read', method: 'pdf_text' });
  });

  it('gives the same statuses with the note as a scanned PDF', async () => {
    const record = await check(
      requestWithNote('application/pdf', pdfDocument([await scannedPage(NOTE_LINES)])),
    );
    expect(statuses(record.outcome as JsonObject)).toEqual(statuses(asText.outcome as JsonObject));
    expect(readingOf(record)).toMatchObject({ status: 'read', method: 'ocr' });
  });

  it('gives the same statuses with the note as a two-page TIFF fax, citing the page it quotes', async () => {
    const cover = await scannedPage(['Fax cover sheet', 'To: Utilization review', 'Pages: 2']);
    const note = await scannedPage(NOTE_LINES);
    const fax = await sharp([cover.scan, note.scan], { join: { animated: true } })
      .tiff({ compression: 'lzw' })
      .toBuffer();
    expect((await sharp(fax).metadata()).pages).toBe(2);
    const record = await check(requestWithNote('image/tiff', fax));
    expect(statuses(record.outcome as JsonObject)).toEqual(statuses(asText.outcome as JsonObject));
    expect(readingOf(record)).toMatchObject({ status: 'read', method: 'ocr', pages: 2, pages_read: 2 });
    expect(JSON.stringify((record.outcome as JsonObject).results)).toContain('Progress note, page 2');
  });

  it('lists a note that cannot be read as unread, with the reason, and judges without it', async () => {
    const record = await check(
      requestWithNote('application/pdf', pdfDocument([{ lines: NOTE_LINES }], { encrypted: true })),
    );
    expect((record.outcome as JsonObject).unread).toEqual([
      expect.objectContaining({
        title: 'Progress note',
        reason: 'The PDF is protected by a password, so it could not be opened.',
      }),
    ]);
    expect((record.outcome as JsonObject).results).toEqual([
      expect.objectContaining({ status: expect.not.stringMatching(/^qualified$/) }),
    ]);
  });

  describe('a referral letter faxed in two pages', () => {
    /** The letter as a clinic would type it: each page's lines, then its table's rows. */
    const typed = REFERRAL.flatMap((page) => [
      ...page.lines,
      ...(page.table ?? []).map((row) => row.join(' ')),
    ]).join('\n');
    const requestWithLetter = (fileType: string, bytes: Buffer) => {
      const request = requestFrom('Ozempic', {
        diagnoses: [{ code: 'E11.9' }],
        evidence: [{ title: 'Referral letter', date_created: NOTE_DATE, text: typed }],
      });
      const [letter] = request.evidence as Array<Record<string, unknown>>;
      letter.asset = { fileType, fileContent: bytes.toString('base64') };
      return request;
    };

    it('qualifies as the letter typed does, though the fax is speckled, turned a degree and its lab table ruled', async () => {
      const seed = Number(process.env.FAXED_LETTER_SEED ?? Math.floor(Math.random() * 2 ** 31));
      process.stdout.write(`faxed letter speckle seed ${seed} (replay with FAXED_LETTER_SEED=${seed})\n`);
      const asText = await check(requestWithLetter('text/plain', Buffer.from(typed)));
      const faxed = await check(requestWithLetter('image/tiff', await faxedLetter(REFERRAL, seed)));

      expect(statuses(asText.outcome as JsonObject)).toEqual([
        expect.objectContaining({ drug: 'Ozempic', status: 'qualified' }),
      ]);
      expect(statuses(faxed.outcome as JsonObject)).toEqual(statuses(asText.outcome as JsonObject));
      expect(JSON.stringify((faxed.outcome as JsonObject).results)).toContain('Referral letter, page 2');
    });
  });
});
