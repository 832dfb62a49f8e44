/** The support programs of `catalog/programs.json` and the lookups of GET /support-programs. */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

import { projectRoot } from '../project-root';
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

function loadPrograms(): SupportProgram[] {
  const file = path.join(projectRoot(), 'catalog', 'programs.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as { programs: SupportProgram[] }).programs;
}

let shippedPrograms: SupportProgram[] | undefined;

/** Read on first use and kept: the shipped catalog never changes while the process runs. */
function programs(): SupportProgram[] {
  shippedPrograms ??= loadPrograms();
  return shippedPrograms;
}

/** Programs matching every given filter, in catalog order; blank filters are ignored. */
export function listPrograms(filters: ProgramFilters = {}): SupportProgram[] {
  const drugName = filters.drug_name?.trim() ?? '';
  const manufacturer = normalizeName(filters.manufacturer ?? '');
  return programs().filter(
    (program) =>
      (drugName === '' || programCoversDrug(program, drugName)) &&
      (manufacturer === '' || normalizeName(program.manufacturer).includes(manufacturer)) &&
      (!filters.type || program.type === filters.type),
  );
}

export function findProgram(id: string): SupportProgram | undefined {
  return programs().find((program) => program.id === id);
}

export function programsForDrug(drugName: string): SupportProgram[] {
  return listPrograms({ drug_name: drugName });
}
