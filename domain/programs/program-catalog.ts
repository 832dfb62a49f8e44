/** The support programs of `catalog/programs.json` and the lookups of GET /support-programs. */
import { normalizeName } from '../payers/payer-catalog';
import type { ProgramType, SupportProgram } from './program-model';
import { programCoversDrug } from './program-rules';

/** A record rather than a list so that the compiler notices a program type added to the model but not here. */
const PROGRAM_TYPE_KEYS: Record<ProgramType, true> = {
  copay_card: true,
  patient_assistance: true,
  bridge_supply: true,
  quick_start: true,
  adherence: true,
  education: true,
};

export const PROGRAM_TYPES = Object.keys(PROGRAM_TYPE_KEYS) as readonly ProgramType[];

export interface ProgramFilters {
  /** A prescribed drug as written ("Ozempic 1 mg pen"); matches programs listing its brand or generic name. */
  drug_name?: string;
  /** Any part of the manufacturer's name, ignoring case and punctuation. */
  manufacturer?: string;
  type?: ProgramType;
}

export class SupportProgramCatalog {
  constructor(readonly programs: readonly SupportProgram[]) {}

  /** Programs matching every given filter, in catalog order; blank filters are ignored. */
  list(filters: ProgramFilters = {}): SupportProgram[] {
    const drugName = filters.drug_name?.trim() ?? '';
    const manufacturer = normalizeName(filters.manufacturer ?? '');
    return this.programs.filter(
      (program) =>
        (drugName === '' || programCoversDrug(program, drugName)) &&
        (manufacturer === '' || normalizeName(program.manufacturer).includes(manufacturer)) &&
        (!filters.type || program.type === filters.type),
    );
  }

  find(id: string): SupportProgram | undefined {
    return this.programs.find((program) => program.id === id);
  }
}
