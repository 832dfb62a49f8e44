import type { CaseRecord } from '../../domain/cases/case-model';
import { caseResults } from '../../src/console/cases/case-views';
import { authorizationFor, enrollmentPatient, patientEnrollmentRequest } from '../support/case-requests';
import { consoleGet, signedInPerson, submitCase, timelineOf } from '../support/console-cases';
import type { ConsoleBrowser } from '../support/console-session';
import { eventually, startTestApp, TestAccount, TestApp } from '../support/test-app';
import { TestWorker } from '../support/workers';

const MYABBVIE_ASSIST = 'prog_01jnnmj58jf1nen1dn9mmkb0r6';
const WEGOTOGETHER = 'prog_01jnb0cf6z6yh818sg768d8m6z';

/** An uninsured patient with a low income, whom patient assistance enrolls at once. */
function patientAssistanceEnrollment() {
  return {
    programId: MYABBVIE_ASSIST,
    ...authorizationFor(MYABBVIE_ASSIST),
    patient: enrollmentPatient(),
    prescription: { drug_name: 'Humira' },
    evidence: [
      { type: 'uninsured_attestation', date_created: '2026-11-01T10:00:00Z', content: { insured: false } },
      {
        type: 'income_verification',
        date_created: '2026-11-01T10:00:00Z',
        content: { household_size: 2, annual_household_income_cents: 3_000_000 },
      },
    ],
  };
}

describe("an enrollment's page in the console", () => {
  let testApp: TestApp;
  let worker: TestWorker;
  let account: TestAccount;
  let provider: ConsoleBrowser;

  beforeAll(async () => {
    testApp = await startTestApp({ PAYER_POLL_INTERVAL_MS: '300' });
    worker = await testApp.startWorker();
    account = await testApp.createAccount('Clinic Enrollments');
    provider = await signedInPerson(testApp, account.accountId, ['provider']);
  });
  afterAll(async () => {
    await worker.stop();
    await testApp.close();
  });

  async function completedPage(request: object): Promise<string> {
    const { id } = await submitCase(testApp, account.keys.provider, '/patient-enrollment', request);
    return eventually(async () => {
      const page = await consoleGet(testApp, provider, `/console/enrollments/${id}`);
      return timelineOf(page.text).includes('completed') ? page.text : undefined;
    });
  }

  it("shows the patient's authorization: its kind, the form version, who signed and when", async () => {
    const page = await completedPage(patientAssistanceEnrollment());
    expect(page).toContain('Patient authorization');
    expect(page).toContain('HIPAA authorization, form <code>SBX-HUB-2026-01</code>');
    expect(page).toContain('signed by Elowen Testperson (the patient) on');
    expect(page).toContain('2026-11-20 14:30 UTC');
  });

  it('shows that an enrollment recorded no authorization', async () => {
    const page = await completedPage(patientEnrollmentRequest());
    expect(page).toContain('None recorded');
  });

  it('shows a copay card with its BIN, PCN and group', async () => {
    const page = await completedPage(patientEnrollmentRequest());
    expect(page).toContain('Copay card issued');
    expect(page).toContain('999911 / SBXCPN1 / SBXOZM24');
  });

  it('shows a patient assistance enrollment as a shipment from the program pharmacy, without card identifiers', async () => {
    const page = await completedPage(patientAssistanceEnrollment());
    expect(page).toContain('Free drug from the program pharmacy');
    expect(page).toContain('AbbVie program pharmacy');
    expect(page).toContain('First shipment expected by');
    expect(page).toContain('Re-verification due');
    expect(page).not.toContain('BIN / PCN / group');
  });

  it('shows an adherence enrollment with its reminder channels and schedule, without card identifiers', async () => {
    const page = await completedPage({
      ...patientEnrollmentRequest(),
      programId: WEGOTOGETHER,
      ...authorizationFor(WEGOTOGETHER),
      prescription: { drug_name: 'Wegovy' },
    });
    expect(page).toContain('Enrolled in the adherence program');
    expect(page).toContain('text, email');
    expect(page).toContain('On each weekly dose day');
    expect(page).not.toContain('BIN / PCN / group');
  });
});

describe('the results of an enrollment completed before confirmations existed', () => {
  const completedBefore = {
    object: 'patient_enrollment',
    missing_information: [],
    outcome: {
      result: 'enrolled',
      program_id: 'prog_01jnzn5t37ydrsw602nch4aqg1',
      member_id: '04211234567',
      bin: '610020',
      pcn: 'PXXPDMI',
      group: 'PSP1A2B3',
      valid_until: '2027-11-24',
      detail: 'Enrolled by the program hub.',
    },
  } as unknown as CaseRecord;

  it('still shows the card identifiers it was recorded with, and no confirmation', () => {
    const shown = String(caseResults(completedBefore));
    expect(shown).toContain('610020 / PXXPDMI / PSP1A2B3');
    expect(shown).not.toContain('Confirmation');
  });
});
