import type { Browser } from 'playwright-core';

import { renderCards } from '../../bench/chromium-cards';
import type { ChromiumCard, ChromiumCardStyle, ChromiumCardValues } from '../../bench/chromium-cards';
import { readCard } from '../../domain/payers/insurance-card';
import { DocumentReadingPool } from '../../infrastructure/documents/reading-pool';
import { describeInBrowser, launchChromium } from '../support/browser';
import { waitForStatus } from '../support/case-journeys';
import type { JsonObject } from '../support/case-journeys';
import { benefitVerificationRequest, syntheticPatient } from '../support/case-requests';
import { bearer, startTestApp } from '../support/test-app';

/**
 * Cards drawn by Chromium from HTML and CSS, not by the SVG corpus the reader was first tuned on:
 * other faces, a gradient ground with white print, a bordered pharmacy table, small grey labels above
 * their values, each scanned or photographed on a patterned desk with glare.
 */

const BLUE_HORIZON: ChromiumCardValues = {
  payerName: 'Blue Horizon Health',
  memberName: 'JORDAN A RIVERA',
  memberIdPrinted: 'ZZBHH000000001',
  groupNumber: '0100',
  rxBin: '999901',
  rxPcn: 'SBXBHHPPO',
  rxGroup: 'SBXBHH0100',
};

const STYLE: ChromiumCardStyle = {
  font: 'Liberation Sans',
  layout: 'stacked',
  otherPrint: false,
  nameInMixedCase: false,
  headerBand: false,
  boldValues: false,
  smallInFrame: false,
  dark: false,
  gradient: false,
  labelsAbove: true,
  pharmacyTable: false,
  labelScale: 0.65,
  labels: {
    memberId: 'Member ID',
    group: 'Group',
    name: 'Member',
    bin: 'RxBIN',
    pcn: 'RxPCN',
    rxGroup: 'RxGRP',
  },
};

const card = (
  values: Partial<ChromiumCardValues>,
  style: Partial<ChromiumCardStyle>,
  form: ChromiumCard['form'],
  seed = 7,
) => ({
  values: { ...BLUE_HORIZON, ...values },
  style: { ...STYLE, ...style },
  form,
  turns: 0,
  seed,
});

const PHOTO_ON_A_DESK = card({}, { font: 'DejaVu Serif', gradient: true }, 'photo', 11);
const PHARMACY_TABLE = card(
  { memberIdPrinted: 'XJK 482 119 730', rxBin: '610014', rxPcn: 'MEDDPRIME', rxGroup: 'RX4410' },
  { pharmacyTable: true, font: 'DejaVu Sans' },
  'scan',
);
const SIDEWAYS_PHOTO = {
  ...card({ memberIdPrinted: 'W482119730', rxBin: '004336' }, { font: 'Liberation Serif' }, 'photo', 23),
  turns: 1,
};
const WHITE_ON_GRADIENT = card(
  { memberIdPrinted: 'U4411207301', groupNumber: '77120' },
  { dark: true, gradient: true, font: 'DejaVu Sans Condensed' },
  'scan',
);

describeInBrowser('cards drawn by another renderer', () => {
  let browser: Browser;
  let pool: DocumentReadingPool;
  let images: Buffer[];

  beforeAll(async () => {
    browser = await launchChromium();
    images = await renderCards(browser, [PHOTO_ON_A_DESK, PHARMACY_TABLE, WHITE_ON_GRADIENT, SIDEWAYS_PHOTO]);
    pool = new DocumentReadingPool();
  });
  afterAll(async () => {
    await pool.close();
    await browser.close();
  });

  const fieldsOf = async (image: Buffer) => {
    const { card: read } = readCard((await pool.read(image)).pages);
    return Object.fromEntries(
      Object.entries(read).flatMap(([field, value]) => (value ? [[field, value.value]] : [])),
    );
  };

  it('fills the RxBIN, RxPCN and RxGroup of a bordered pharmacy table, and a member id printed in groups', async () => {
    expect(await fieldsOf(images[1])).toMatchObject({
      member_id: 'XJK482119730',
      rx_bin: '610014',
      rx_pcn: 'MEDDPRIME',
      rx_group: 'RX4410',
    });
  });

  it('reads white print on a gradient card', async () => {
    expect(await fieldsOf(images[2])).toMatchObject({ member_id: 'U4411207301', group_number: '77120' });
  });

  it('reads a card photographed sideways and tilted on a desk, found, warped flat and stood up', async () => {
    expect(await fieldsOf(images[3])).toMatchObject({ member_id: 'W482119730', rx_bin: '004336' });
  });

  it("reads the sandbox's own ZZ member id from a photo of the card on a desk, as read by both readers", async () => {
    const { card: read } = readCard((await pool.read(images[0])).pages);
    expect(read.member_id).toMatchObject({ value: 'ZZBHH000000001', readers: 2 });
  });

  describe('a benefit verification from the photo alone', () => {
    it('completes with the plan the card names', async () => {
      const testApp = await startTestApp();
      const worker = await testApp.startWorker();
      try {
        const account = await testApp.createAccount();
        const body = benefitVerificationRequest({
          patient: syntheticPatient(),
          insurance: [{ file_content: images[0].toString('base64') }],
        });
        delete (body as { insurance_content?: unknown }).insurance_content;
        const created = await testApp
          .http()
          .post('/benefit-verification')
          .set(bearer(account.keys.provider))
          .send(body);
        expect(created.status).toBe(201);
        const id = (created.body.data as JsonObject).id as string;
        const completed = await waitForStatus(
          testApp,
          account.keys.provider,
          '/benefit-verification',
          id,
          'completed',
        );
        expect(completed.outcome).toMatchObject({
          payer_name: 'Blue Horizon Health',
          plan_name: 'Blue Horizon PPO Select',
        });
        expect((completed.insurance_card as JsonObject).scanned).toMatchObject({
          member_id: { value: 'ZZBHH000000001', readers: 2 },
        });
      } finally {
        await worker.stop();
        await testApp.close();
      }
    });
  });
});
