import { createHash } from 'node:crypto';

import type { EnrollmentOutcome } from '../../domain/programs/enrollment-model';

/**
 * How enrollments reach a manufacturer's program hub. Local mode uses the simulator; a real hub
 * integration implements the same interface.
 */
export interface ProgramHubConnector {
  submitEnrollment(input: { programId: string; caseId: string }): Promise<{ hub_reference: string }>;
  /** null while the hub has not decided; `checksSoFar` lets the simulator take a while like a real hub. */
  checkEnrollment(input: {
    programId: string;
    hub_reference: string;
    checksSoFar: number;
  }): Promise<EnrollmentOutcome | null>;
}

const DAY_MS = 86_400_000;

/** Decides every screened enrollment as enrolled on its second check, with card numbers derived from the reference. */
export class ProgramHubSimulator implements ProgramHubConnector {
  constructor(private readonly now: () => Date = () => new Date()) {}

  async submitEnrollment(input: { programId: string; caseId: string }): Promise<{ hub_reference: string }> {
    // Derived from the input, so a retried submission gets the same reference.
    return {
      hub_reference: `HUB-${digest(`${input.programId}:${input.caseId}`).slice(0, 10).toUpperCase()}`,
    };
  }

  async checkEnrollment(input: {
    programId: string;
    hub_reference: string;
    checksSoFar: number;
  }): Promise<EnrollmentOutcome | null> {
    if (input.checksSoFar === 0) return null;
    const token = digest(input.hub_reference);
    return {
      result: 'enrolled',
      program_id: input.programId,
      member_id: `${parseInt(token.slice(0, 12), 16)}`.padStart(11, '0').slice(0, 11),
      bin: '610020',
      pcn: 'PXXPDMI',
      group: `PSP${token.slice(12, 17).toUpperCase()}`,
      valid_until: new Date(this.now().getTime() + 365 * DAY_MS).toISOString().slice(0, 10),
      detail: 'Enrolled by the program hub.',
    };
  }
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
