import { createHash } from 'node:crypto';

import { confirmEnrollment, enrolledOutcome } from '../../domain/programs/enrollment-confirmation';
import type { EnrollmentOutcome } from '../../domain/programs/enrollment-model';
import { findProgram } from '../../domain/programs/program-catalog';
import { playSandboxOutage } from './sandbox-outage';

/**
 * How enrollments reach a manufacturer's program hub. Local mode uses the simulator; a real hub
 * integration implements the same interface.
 */
export interface ProgramHubConnector {
  /** `mockOutageUntil`: sandbox only, the simulated hub is unavailable until then (`mock_result.outage`). */
  submitEnrollment(input: {
    programId: string;
    caseId: string;
    mockOutageUntil?: string;
  }): Promise<{ hub_reference: string }>;
  /** null while the hub has not decided; `checksSoFar` lets the simulator take a while like a real hub. */
  checkEnrollment(input: {
    programId: string;
    hub_reference: string;
    checksSoFar: number;
  }): Promise<EnrollmentOutcome | null>;
}

/**
 * Enrolls every screened enrollment on its second check with the confirmation its program's terms
 * give (catalog/programs.json): a copay card's member id is derived from the hub reference, so a
 * repeated check confirms the same card, and begins `ZZ` like every sandbox member id; other programs confirm a shipment or a first contact.
 */
export class ProgramHubSimulator implements ProgramHubConnector {
  constructor(private readonly now: () => Date = () => new Date()) {}

  async submitEnrollment(input: {
    programId: string;
    caseId: string;
    mockOutageUntil?: string;
  }): Promise<{ hub_reference: string }> {
    playSandboxOutage('program hub', input.mockOutageUntil, new Date());
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
    const program = findProgram(input.programId);
    if (!program) {
      return {
        result: 'inconclusive',
        program_id: input.programId,
        member_id: null,
        bin: null,
        pcn: null,
        group: null,
        valid_until: null,
        detail: 'The program no longer exists in the catalog.',
      };
    }
    const confirmation = confirmEnrollment(program.confirmation, {
      enrolledOn: this.now().toISOString().slice(0, 10),
      memberId: `ZZ${`${parseInt(digest(input.hub_reference).slice(0, 12), 16)}`.padStart(11, '0').slice(0, 11)}`,
    });
    return enrolledOutcome(input.programId, confirmation);
  }
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
