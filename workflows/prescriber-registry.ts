import { ActivityFailure, patched, proxyLocalActivities } from '@temporalio/workflow';

import type { createPrescriberRegistryActivities } from '../activities/prescriber-registry';
import type { CaseRecord, Provider } from '../domain/cases/case-model';
import type { PrescriberRegistryCheck } from '../domain/providers/prescriber-registry';
import { PRESCRIBER_REGISTRY } from './patches';

/**
 * A local activity though it may go over the network: the registry's own time limit is seconds, an
 * outage is an answer (`registry_unavailable`), not a failure to retry, and a case's first step
 * should not wait for a task queue round trip. One retry covers a worker restart mid-call.
 */
const localRegistry = proxyLocalActivities<ReturnType<typeof createPrescriberRegistryActivities>>({
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '1 second', maximumAttempts: 2 },
});

type CaseWithPrescriber = CaseRecord & {
  request: { provider: Provider };
  prescriber_registry?: PrescriberRegistryCheck | null;
};

/**
 * Records what the NPI registry says of the case's prescriber, shown from the case's next change.
 * Cases started before the check replay without it.
 */
export async function checkPrescriber(record: CaseWithPrescriber): Promise<void> {
  if (!patched(PRESCRIBER_REGISTRY)) return;
  const { provider } = record.request;
  try {
    record.prescriber_registry = await localRegistry.checkPrescriberInRegistry({
      npi: provider.npi,
      first_name: provider.first_name,
      last_name: provider.last_name,
      livemode: record.livemode === true,
    });
  } catch (error) {
    // The registry lends details; a lookup that fails outright (a worker without it) stops nothing.
    if (!(error instanceof ActivityFailure)) throw error;
    record.prescriber_registry = {
      outcome: 'registry_unavailable',
      checked_at: new Date().toISOString(),
      practice_address: null,
      taxonomy: null,
    };
  }
}
