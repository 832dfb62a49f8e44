import type { ProgramType } from '../../domain/programs/program-model';
import { ConnectorError } from '../../domain/failures';
import { ProgramHubSimulator } from '../../infrastructure/connectors/program-hub';
import { authorizationFor, signedAuthorization } from '../support/case-requests';
import { shippedSupportPrograms } from '../../infrastructure/catalogs/shipped-catalogs';

const hub = new ProgramHubSimulator(() => new Date('2026-11-25T15:00:00Z'));

function firstProgramOf(type: ProgramType): string {
  const program = shippedSupportPrograms().list({ type })[0];
  if (!program) throw new Error(`the catalog has no ${type} program`);
  return program.id;
}

/** Submits with the authorization the program requires, as the API lets through, and checks a second time. */
async function enroll(programId: string) {
  const { hub_reference } = await hub.submitEnrollment({
    programId,
    caseId: 'pe_01jq000000000000000000test',
    patient_authorization: authorizationFor(programId).patient_authorization ?? null,
  });
  return hub.checkEnrollment({ programId, hub_reference, checksSoFar: 1 });
}

const NO_CARD = { member_id: null, bin: null, pcn: null, group: null };

describe('the simulated program hub', () => {
  it('has not decided on its first check', async () => {
    const programId = firstProgramOf('copay_card');
    const { hub_reference } = await hub.submitEnrollment({
      programId,
      caseId: 'pe_01jq000000000000000000test',
      patient_authorization: null,
    });
    expect(await hub.checkEnrollment({ programId, hub_reference, checksSoFar: 0 })).toBeNull();
  });

  it('issues a copay card with the program’s BIN, PCN and group and a sandbox member id', async () => {
    expect(await enroll(firstProgramOf('copay_card'))).toMatchObject({
      result: 'enrolled',
      member_id: expect.stringMatching(/^ZZ\d{11}$/),
      bin: '999911',
      pcn: 'SBXCPN1',
      group: 'SBXOZM24',
      valid_until: '2028-11-24',
      confirmation: { kind: 'copay_card', bin: '999911', pcn: 'SBXCPN1', group: 'SBXOZM24' },
    });
  });

  it('confirms the same copay card however often it is asked', async () => {
    const programId = firstProgramOf('copay_card');
    expect(await enroll(programId)).toEqual(await enroll(programId));
  });

  it.each([
    ['patient_assistance', 'free_drug_fulfillment'],
    ['bridge_supply', 'bridge_supply_fulfillment'],
    ['quick_start', 'quick_start_fulfillment'],
    ['education', 'education_enrollment'],
    ['adherence', 'adherence_enrollment'],
  ] as const)(
    'enrolls in a %s program with a %s confirmation and no card identifiers',
    async (type, kind) => {
      const outcome = await enroll(firstProgramOf(type));
      expect(outcome).toMatchObject({ result: 'enrolled', ...NO_CARD, confirmation: { kind } });
      expect(outcome?.valid_until).toBe(outcome?.confirmation?.valid_until);
    },
  );

  it('confirms patient assistance as a shipment from the program pharmacy with a re-verification date', async () => {
    expect((await enroll(firstProgramOf('patient_assistance')))?.confirmation).toEqual({
      kind: 'free_drug_fulfillment',
      pharmacy_name: 'Novo Nordisk program pharmacy',
      ship_to: 'patient_home',
      first_shipment_expected_by: '2026-12-09',
      days_supply_per_shipment: 120,
      reverification_due_on: '2027-10-25',
      valid_until: '2027-11-24',
    });
  });

  it.each([
    ['without an authorization', null],
    ['with an authorization of another type', signedAuthorization('program_consent')],
  ])(
    'refuses for good an enrollment %s in a program that requires a HIPAA authorization',
    async (_case, authorization) => {
      const submitted = hub.submitEnrollment({
        programId: firstProgramOf('patient_assistance'),
        caseId: 'pe_01jq000000000000000000test',
        patient_authorization: authorization,
      });
      await expect(submitted).rejects.toBeInstanceOf(ConnectorError);
      await expect(submitted).rejects.toMatchObject({
        transient: false,
        message: expect.stringContaining('hipaa_authorization'),
      });
    },
  );

  it('accepts an enrollment started before authorizations were recorded, as its program did then', async () => {
    const submitted = await hub.submitEnrollment({
      programId: firstProgramOf('patient_assistance'),
      caseId: 'pe_01jq000000000000000000test',
    });
    expect(submitted.hub_reference).toMatch(/^HUB-/);
  });

  it('answers inconclusive for a program the catalog no longer has', async () => {
    expect(await enroll('prog_00000000000000000000000000')).toMatchObject({
      result: 'inconclusive',
      ...NO_CARD,
      detail: 'The program no longer exists in the catalog.',
    });
  });
});
