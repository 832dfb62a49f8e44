import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EligibilityInquiry, EligibilityResponse } from '../../domain/payers/eligibility';
import { eligibilityRejection } from '../../infrastructure/connectors/x12/eligibility-codes';
import { writeEligibilityInquiry } from '../../infrastructure/connectors/x12/eligibility-inquiry';
import { writeEligibilityResponse } from '../../infrastructure/connectors/x12/eligibility-response';
import { ACTIVE_ANSWER, DEPENDENT_INQUIRY, ENVELOPE, SUBSCRIBER_INQUIRY } from '../fixtures/x12/examples';
import { pythonToolsPython } from '../support/python-tools';

/**
 * The service's own 270s and 271s, checked by pyx12 against the 005010X279A1 map: an independent
 * validator that knows the implementation guide's loops, usages and code lists. Its Python comes
 * from X12_VALIDATOR_PYTHON, else the Python tools' environment (scripts/ensure-python-tools.sh). Outside CI,
 * with no X12_VALIDATOR_PYTHON, the test is skipped when pyx12 is not installed.
 */
const ROOT = join(__dirname, '../..');
const python = process.env.X12_VALIDATOR_PYTHON ?? pythonToolsPython();
const available =
  existsSync(python) && spawnSync(python, ['-c', 'import pyx12'], { stdio: 'ignore' }).status === 0;
// Named explicitly (as .ci/run does) or in CI, a missing validator fails the test instead.
const required = Boolean(process.env.X12_VALIDATOR_PYTHON || process.env.CI);
const describeWithValidator = available || required ? describe : describe.skip;

function validate(files: Record<string, string>): { status: number | null; report: string } {
  const directory = mkdtempSync(join(tmpdir(), 'x12-validation-'));
  try {
    const paths = Object.entries(files).map(([name, text]) => {
      const path = join(directory, name);
      writeFileSync(path, text);
      return path;
    });
    const run = spawnSync(python, [join(ROOT, 'scripts/x12-validate.py'), ...paths], { encoding: 'utf8' });
    return { status: run.status, report: `${run.stdout}${run.stderr}` };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

const PERSON_PROVIDER: EligibilityInquiry['provider'] = {
  npi: '1234567893',
  firstName: 'Avery',
  lastName: 'Clinician',
};

/**
 * The 2014 map pyx12 validates 271s with predates two 005010 features: it reads EB03 as one code
 * rather than a repeating element, and it expects the 2120 loop (LS/LE) inside 2115. These answers
 * therefore name one service type per row and no benefit manager; the reader tests cover the rest.
 */
const VALIDATABLE_ANSWER: EligibilityResponse = { ...ACTIVE_ANSWER, pharmacy_benefit_manager_name: null };

describeWithValidator('the X12 the service writes, checked by pyx12 against 005010X279A1', () => {
  it('finds no error in 270s for a subscriber, a dependent, a person provider and many service types', () => {
    const { status, report } = validate({
      'subscriber.270': writeEligibilityInquiry(SUBSCRIBER_INQUIRY, ENVELOPE),
      'dependent.270': writeEligibilityInquiry(DEPENDENT_INQUIRY, ENVELOPE),
      'spouse-without-gender-or-group.270': writeEligibilityInquiry(
        {
          ...DEPENDENT_INQUIRY,
          provider: PERSON_PROVIDER,
          subscriber: { ...SUBSCRIBER_INQUIRY.subscriber, groupNumber: undefined, gender: undefined },
          dependent: { ...DEPENDENT_INQUIRY.dependent!, relationship: 'spouse', gender: undefined },
        },
        { ...ENVELOPE, usage: 'production', controlNumber: 999_999_999 },
      ),
      'service-types.270': writeEligibilityInquiry(
        {
          ...SUBSCRIBER_INQUIRY,
          serviceTypeCodes: [
            '30',
            '1',
            '33',
            '35',
            '47',
            '86',
            '88',
            '89',
            '90',
            '91',
            '92',
            '98',
            'AL',
            'MH',
            'UC',
          ],
        },
        ENVELOPE,
      ),
    });
    expect(report).not.toContain('ERROR');
    expect(status).toBe(0);
  });

  it("finds no error in the simulated clearinghouse's 271s: covered, dependent, not found, ended and refused", () => {
    const { status, report } = validate({
      'covered.271': writeEligibilityResponse(SUBSCRIBER_INQUIRY, VALIDATABLE_ANSWER, ENVELOPE),
      'dependent.271': writeEligibilityResponse(DEPENDENT_INQUIRY, VALIDATABLE_ANSWER, ENVELOPE),
      'not-found.271': writeEligibilityResponse(
        DEPENDENT_INQUIRY,
        {
          ...VALIDATABLE_ANSWER,
          coverage: 'unknown',
          pharmacy_benefits: [],
          accumulators: [],
          messages: [],
          rejections: [eligibilityRejection('subscriber', '75', 'C')],
        },
        ENVELOPE,
      ),
      'ended.271': writeEligibilityResponse(
        SUBSCRIBER_INQUIRY,
        {
          ...VALIDATABLE_ANSWER,
          coverage: 'inactive',
          coverage_dates: { start_date: '2025-01-01', end_date: '2025-06-30' },
          pharmacy_benefits: [],
          accumulators: [],
        },
        ENVELOPE,
      ),
      'provider-refused.271': writeEligibilityResponse(
        SUBSCRIBER_INQUIRY,
        { ...VALIDATABLE_ANSWER, rejections: [eligibilityRejection('information_receiver', '50', 'N')] },
        ENVELOPE,
      ),
      'payer-unable.271': writeEligibilityResponse(
        SUBSCRIBER_INQUIRY,
        { ...VALIDATABLE_ANSWER, rejections: [eligibilityRejection('information_source', '42', 'R')] },
        ENVELOPE,
      ),
    });
    expect(report).not.toContain('ERROR');
    expect(status).toBe(0);
  });

  it('does report an error, so a passing run means something: a 270 missing its required subscriber name', () => {
    const broken = writeEligibilityInquiry(SUBSCRIBER_INQUIRY, ENVELOPE)
      .replace(/NM1\*IL[^~]*~/, '')
      .replace('SE*15*', 'SE*14*');
    const { status, report } = validate({ 'broken.270': broken });
    expect(report).toContain('ERROR');
    expect(status).toBe(1);
  });
});
