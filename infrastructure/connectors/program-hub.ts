import { createHash } from 'node:crypto';

import { ConnectorError } from '../../domain/failures';
import { confirmEnrollment, enrolledOutcome } from '../../domain/programs/enrollment-confirmation';
import type { EnrollmentOutcome } from '../../domain/programs/enrollment-model';
import { patientAuthorizationIssue } from '../../domain/programs/patient-authorization';
import type { PatientAuthorization } from '../../domain/programs/patient-authorization';
import { playSandboxOutage } from './sandbox-outage';
import { shippedSupportPrograms } from '../catalogs/shipped-catalogs';

/** What the hub is sent: the enrollment and the patient's authorization, its proof of consent. */
export interface EnrollmentSubmission {
  programId: string;
  caseId: string;
  /**
   * null when the enrollment recorded none; undefined for an enrollment started before authorizations
   * were recorded, which its program accepted without one.
   */
  patient_authorization?: PatientAuthorization | null;
  /** Sandbox only: the simulated hub is unavailable until then (`mock_result.outage`). */
  mockOutageUntil?: string;
}

/**
 * How enrollments reach a manufacturer's program hub. Local mode uses the simulator; a real hub
 * integration implements the same interface.
 */
export interface ProgramHubConnector {
  submitEnrollment(input: EnrollmentSubmission): Promise<{ hub_reference: string }>;
  /** null while the hub has not decided; `checksSoFar` lets the simulator take a while like a real hub. */
  checkEnrollment(input: {
    programId: string;
    hub_reference: string;
    checksSoFar: number;
  }): Promise<EnrollmentOutcome | null>;
}

/**
 * Accepts every enrollment carrying the authorization its program requires and enrolls it on its
 * second check with the confirmation its program's terms give (catalog/programs.json): a copay card's
 * member id is derived from the hub reference, so a repeated check confirms the same card, and begins
 * `ZZ` like every sandbox member id; other programs confirm a shipment or a first contact.
 */
export class ProgramHubSimulator implements ProgramHubConnector {
  constructor(private readonly now: () => Date = () => new Date()) {}

  /** Refuses, as a hub does, an enrollment without the authorization its program requires. */
  async submitEnrollment(input: EnrollmentSubmission): Promise<{ hub_reference: string }> {
    playSandboxOutage('program hub', input.mockOutageUntil, new Date());
    const program = shippedSupportPrograms().find(input.programId);
    const missing =
      program &&
      input.patient_authorization !== undefined &&
      patientAuthorizationIssue(program.patient_authorization_required, input.patient_authorization);
    if (missing) {
      throw new ConnectorError(`The program hub refused the enrollment: ${missing.field} ${missing.issue}.`, {
        transient: false,
      });
    }
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
    const program = shippedSupportPrograms().find(input.programId);
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
