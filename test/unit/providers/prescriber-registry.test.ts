import { createPrescriberRegistryActivities } from '../../../activities/prescriber-registry';
import type { NpiRegistry, RegistryProvider } from '../../../domain/providers/npi-registry';
import { SANDBOX_NPIS, SandboxRegistry } from '../../../infrastructure/providers/sandbox-registry';

const sandbox = createPrescriberRegistryActivities({ forMode: () => new SandboxRegistry() });
const query = (npi: string, names = { first_name: 'Amadou', last_name: 'Reviewsworth' }) => ({
  npi,
  ...names,
  livemode: false,
});

/** An outside registry answering one record, as NPPES might: the activity must not trust its codes. */
function registryAnswering(record: RegistryProvider): { forMode(): NpiRegistry } {
  return { forMode: () => ({ byNpi: async () => record, byName: async () => [record] }) };
}

describe("what a case keeps of the NPI registry's answer about its prescriber", () => {
  it("keeps a matched prescriber's practice address, its ZIP+4 written as payers write it, and taxonomy", async () => {
    const check = await sandbox.checkPrescriberInRegistry(query(SANDBOX_NPIS.active));
    expect(check.outcome).toBe('matched');
    expect(check.practice_address).toMatchObject({ zip_postal_code: '97201-0000', country: 'US' });
    expect(check.taxonomy).toEqual({ code: '207Q00000X', description: expect.any(String) });
  });

  it.each([
    [SANDBOX_NPIS.nameMismatch, 'name_mismatch'],
    [SANDBOX_NPIS.deactivated, 'inactive'],
    [SANDBOX_NPIS.organization, 'organization'],
    [SANDBOX_NPIS.notReturned, 'not_found'],
    [SANDBOX_NPIS.registryDown, 'registry_unavailable'],
  ])('keeps nothing of the registry for NPI %s, only the reason: %s', async (npi, outcome) => {
    const check = await sandbox.checkPrescriberInRegistry(query(npi));
    expect(check).toEqual({
      outcome,
      checked_at: expect.any(String),
      practice_address: null,
      taxonomy: null,
    });
  });

  it('lends no taxonomy code a payer would refuse, though the prescriber matches', async () => {
    const activities = createPrescriberRegistryActivities(
      registryAnswering({
        npi: '1234567893',
        type: 'individual',
        name: 'AMADOU REVIEWSWORTH',
        first_name: 'AMADOU',
        last_name: 'REVIEWSWORTH',
        credential: null,
        taxonomy: { code: '207Q*0000X', description: 'Family Medicine' },
        practice_address: null,
        active: true,
      }),
    );
    const check = await activities.checkPrescriberInRegistry(query('1234567893'));
    expect(check).toMatchObject({ outcome: 'matched', taxonomy: null });
  });

  it('lets an error that is no outage reach Temporal, which retries the step', async () => {
    const failing = createPrescriberRegistryActivities({
      forMode: () => ({
        byNpi: async () => {
          throw new TypeError('a bug');
        },
        byName: async () => [],
      }),
    });
    await expect(failing.checkPrescriberInRegistry(query('1234567893'))).rejects.toThrow(TypeError);
  });
});
