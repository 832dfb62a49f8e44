import { ConnectorError } from '../../domain/failures';
import type {
  BenefitsCheck,
  BenefitsCheckInput,
  InsuranceEvidence,
  PayerConnector,
  PlanResolution,
  PriorAuthDetermination,
  PriorAuthPrefill,
  PriorAuthPrefillInput,
  PriorAuthSubmissionInput,
} from '../../domain/payers/payer-connector';
import type { EnrollmentOutcome } from '../../domain/programs/enrollment-model';
import type { EvaluationLimits } from '../../domain/clinical/clinical-model';
import { PayerSimulator } from '../../infrastructure/connectors/payer-simulator';
import { ProgramHubConnector, ProgramHubSimulator } from '../../infrastructure/connectors/program-hub';

/** How a double's call fails: as a real connector says it, transient or permanent. */
export interface ConnectorFailure {
  transient: boolean;
  /** How long the other side asks to wait before the next attempt (keeps retrying tests short). */
  retryAfterMs?: number;
}

/**
 * A connector double: answers as the simulator does, except for the calls it is told to fail, and
 * records every call so a test can tell a retried call from one tried once.
 */
class ScriptedConnector<Method extends string> {
  private readonly failures = new Map<Method, ConnectorFailure>();
  private readonly inputs = new Map<Method, unknown[]>();

  failOn(method: Method, failure: ConnectorFailure): this {
    this.failures.set(method, failure);
    return this;
  }

  callsTo(method: Method): number {
    return this.inputsTo(method).length;
  }

  /** What each call to `method` was given, in order. */
  inputsTo(method: Method): unknown[] {
    return this.inputs.get(method) ?? [];
  }

  /** Answers every call again and forgets the counts. */
  reset(): void {
    this.failures.clear();
    this.inputs.clear();
  }

  protected async answer<Result>(
    method: Method,
    input: unknown,
    call: () => Promise<Result>,
  ): Promise<Result> {
    this.inputs.set(method, [...this.inputsTo(method), input]);
    const failure = this.failures.get(method);
    if (failure) throw new ConnectorError(`The test double failed ${method}.`, failure);
    return call();
  }
}

export class PayerDouble extends ScriptedConnector<keyof PayerConnector> implements PayerConnector {
  constructor(private readonly simulator: PayerConnector = new PayerSimulator()) {
    super();
  }

  resolvePlan(insurance: InsuranceEvidence): Promise<PlanResolution> {
    return this.answer('resolvePlan', insurance, () => this.simulator.resolvePlan(insurance));
  }

  checkBenefits(input: BenefitsCheckInput): Promise<BenefitsCheck> {
    return this.answer('checkBenefits', input, () => this.simulator.checkBenefits(input));
  }

  prefillPriorAuthorization(
    input: PriorAuthPrefillInput,
    limits?: EvaluationLimits,
  ): Promise<PriorAuthPrefill> {
    return this.answer('prefillPriorAuthorization', input, () =>
      this.simulator.prefillPriorAuthorization(input, limits),
    );
  }

  submitPriorAuthorization(input: PriorAuthSubmissionInput): Promise<{ payer_reference: string }> {
    return this.answer('submitPriorAuthorization', input, () =>
      this.simulator.submitPriorAuthorization(input),
    );
  }

  checkDetermination(
    input: PriorAuthSubmissionInput & { payer_reference: string; checksSoFar: number },
  ): Promise<PriorAuthDetermination | null> {
    return this.answer('checkDetermination', input, () => this.simulator.checkDetermination(input));
  }
}

export class ProgramHubDouble
  extends ScriptedConnector<keyof ProgramHubConnector>
  implements ProgramHubConnector
{
  constructor(private readonly simulator: ProgramHubConnector = new ProgramHubSimulator()) {
    super();
  }

  submitEnrollment(input: {
    programId: string;
    caseId: string;
    mockOutageUntil?: string;
  }): Promise<{ hub_reference: string }> {
    return this.answer('submitEnrollment', input, () => this.simulator.submitEnrollment(input));
  }

  checkEnrollment(input: {
    programId: string;
    hub_reference: string;
    checksSoFar: number;
  }): Promise<EnrollmentOutcome | null> {
    return this.answer('checkEnrollment', input, () => this.simulator.checkEnrollment(input));
  }
}
