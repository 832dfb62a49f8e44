/**
 * Reads the catalogs shipped in `catalog/` and hands them to the domain, which holds their rules but
 * never touches the disk. Each shipped catalog is read on first use and kept: it never changes while
 * the process runs.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

import type { CatalogDrugName, DrugCriteria } from '../../domain/clinical/criteria';
import { ClinicalCatalog } from '../../domain/clinical/criteria-catalog';
import { Icd10Subset } from '../../domain/clinical/icd10';
import type { Icd10SubsetData } from '../../domain/clinical/icd10';
import { PayerCatalog } from '../../domain/payers/payer-catalog';
import type {
  BvMockDefinition,
  CatalogDrug,
  CatalogPayer,
  Formulary,
  PartDParameters,
  PayerFailure,
} from '../../domain/payers/payer-catalog';
import { SupportProgramCatalog } from '../../domain/programs/program-catalog';
import type { SupportProgram } from '../../domain/programs/program-model';
import { projectRoot } from '../project-root';

const CATALOG_DIRECTORY = path.join(projectRoot(), 'catalog');

function readCatalogFile<T>(file: string): T {
  return JSON.parse(readFileSync(path.join(CATALOG_DIRECTORY, file), 'utf8')) as T;
}

type BvMocks = { mock_cases: Record<string, BvMockDefinition>; failure: PayerFailure };

const readBvMocks = () => readCatalogFile<BvMocks>('benefit-verification-mock-cases.json');

let icd10: Icd10Subset | undefined;
let clinical: ClinicalCatalog | undefined;
let payers: PayerCatalog | undefined;
let programs: SupportProgramCatalog | undefined;
let mockCaseNames: string[] | undefined;

export function shippedIcd10Subset(): Icd10Subset {
  icd10 ??= new Icd10Subset(readCatalogFile<Icd10SubsetData>('clinical/icd10cm.json'));
  return icd10;
}

export function shippedClinicalCatalog(): ClinicalCatalog {
  clinical ??= new ClinicalCatalog(
    readCatalogFile<{ drugs: CatalogDrugName[] }>('drugs.json').drugs,
    readCatalogFile<{ drugs: DrugCriteria[] }>('clinical/criteria.json').drugs,
    shippedIcd10Subset(),
  );
  return clinical;
}

export function shippedPayerCatalog(): PayerCatalog {
  if (payers) return payers;
  const mocks = readBvMocks();
  payers = new PayerCatalog({
    payers: readCatalogFile<{ payers: CatalogPayer[] }>('payers.json').payers,
    drugs: readCatalogFile<{ drugs: CatalogDrug[] }>('drugs.json').drugs,
    formularies: readCatalogFile<{ formularies: Formulary[] }>('formularies.json').formularies,
    criteria: shippedClinicalCatalog(),
    mockCases: mocks.mock_cases,
    mockFailure: mocks.failure,
    partD: readCatalogFile<{ years: PartDParameters[] }>('medicare-part-d-parameters.json').years.sort(
      (a, b) => a.year - b.year,
    ),
  });
  return payers;
}

export function shippedSupportPrograms(): SupportProgramCatalog {
  programs ??= new SupportProgramCatalog(
    readCatalogFile<{ programs: SupportProgram[] }>('programs.json').programs,
  );
  return programs;
}

/**
 * The names a benefit verification's `mock_result.case` may take, in the shipped catalog's order. The
 * API's validation needs only these, so they are read from their own file, not with the whole catalog.
 */
export function shippedBenefitVerificationMockCaseNames(): string[] {
  mockCaseNames ??= Object.keys(readBvMocks().mock_cases);
  return mockCaseNames;
}
