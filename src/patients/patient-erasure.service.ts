import { Client, WorkflowExecutionStatusName, WorkflowNotFoundError } from '@temporalio/client';

import { hasIdPrefix, newId } from '../../domain/ids';
import type { Principal } from '../../infrastructure/accounts/accounts.repository';
import type { AppConfig } from '../../infrastructure/config/config';
import type { PatientErasureInput, patientErasureWorkflow } from '../../workflows/patient-erasure.workflow';
import { patientRefOf } from '../cases/cases.module';
import { ApiError } from '../common/errors';
import type { PatientErasure } from '../contract/published-objects';

const OWNER_MEMO_KEY = 'erasure';

interface ErasureOwner {
  account_id: string;
  livemode: boolean;
}

/**
 * Starts and reads patient erasures (docs/operations.md, "Erasing a patient"), each a workflow
 * whose input carries the patient's keyed hash only; its id names no one.
 */
export class PatientErasureService {
  constructor(
    private readonly client: Client,
    private readonly config: AppConfig,
  ) {}

  async request(principal: Principal, patientInternalId: string): Promise<PatientErasure> {
    const id = newId('patientErasure');
    const input: PatientErasureInput = {
      accountId: principal.accountId,
      livemode: principal.livemode,
      patientRef: patientRefOf(this.config.cases.patientRefKey!, principal.accountId, patientInternalId),
      requestedBy: principal.credential,
    };
    const owner: ErasureOwner = { account_id: principal.accountId, livemode: principal.livemode };
    const handle = await this.client.workflow.start<typeof patientErasureWorkflow>('patientErasureWorkflow', {
      workflowId: id,
      taskQueue: this.config.temporal.taskQueue,
      args: [input],
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      memo: { [OWNER_MEMO_KEY]: owner },
    });
    const description = await handle.describe();
    return {
      id,
      object: 'patient_erasure',
      status: 'in_progress',
      created_at: description.startTime.toISOString(),
    };
  }

  /** The erasure if the caller's account and mode asked for it; 404 otherwise, as for any unknown id. */
  async get(principal: Principal, id: string): Promise<PatientErasure> {
    const notFound = ApiError.notFound('No patient erasure with this id exists in your account.');
    if (!hasIdPrefix('patientErasure', id)) throw notFound;
    const handle = this.client.workflow.getHandle<typeof patientErasureWorkflow>(id);
    const description = await handle.describe().catch((error: unknown) => {
      if (error instanceof WorkflowNotFoundError) throw notFound;
      throw error;
    });
    const owner = description.memo?.[OWNER_MEMO_KEY] as ErasureOwner | undefined;
    if (owner?.account_id !== principal.accountId || owner.livemode !== principal.livemode) throw notFound;
    const view: PatientErasure = {
      id,
      object: 'patient_erasure',
      status: statusOf(description.status.name),
      created_at: description.startTime.toISOString(),
    };
    if (view.status === 'completed') view.cases_erased = (await handle.result()).casesErased;
    if (description.closeTime) view.completed_at = description.closeTime.toISOString();
    return view;
  }
}

function statusOf(status: WorkflowExecutionStatusName): PatientErasure['status'] {
  if (status === 'RUNNING') return 'in_progress';
  return status === 'COMPLETED' ? 'completed' : 'failed';
}
