import { readFileSync } from 'node:fs';
import * as path from 'node:path';

import type { FhirQuestionnaireResponseItem } from '../../domain/dtr/fhir-questionnaire';
import type { FhirBundle } from '../../infrastructure/dtr/cql-prefill';

/** Inferno's DTR test kit fixtures (test/fixtures/dtr/inferno/README.md), read fresh for each caller. */
export const INFERNO_FIXTURES = path.join(__dirname, '..', 'fixtures', 'dtr', 'inferno');

export function infernoFixture<T = Record<string, unknown>>(file: string): T {
  return JSON.parse(readFileSync(path.join(INFERNO_FIXTURES, file), 'utf8')) as T;
}

export const respiratoryPackageFile = path.join(INFERNO_FIXTURES, 'questionnaire_package.json');
export const pat015BundleFile = path.join(INFERNO_FIXTURES, 'pat015_bundle.json');
export const pat015 = (): FhirBundle => infernoFixture<FhirBundle>('pat015_bundle.json');

/** The moment Inferno's expected response was authored, so CQL's Today() gives its SIGPNP.3. */
export const EXPECTED_AUTHORED = new Date('2024-04-07T18:32:03.440Z');
/** The order the expected response is about (its qr-context extension). */
export const RESPIRATORY_ORDER = 'DeviceRequest/devreqe0470';

/** Each answered item of a QuestionnaireResponse, by linkId, wherever it nests. */
export function answersByLinkId(
  items: FhirQuestionnaireResponseItem[],
): Map<string, Record<string, unknown>[]> {
  const found = new Map<string, Record<string, unknown>[]>();
  const visit = (list: FhirQuestionnaireResponseItem[]): void => {
    for (const item of list) {
      if (item.answer) found.set(item.linkId, item.answer);
      visit(item.item ?? []);
      for (const answer of item.answer ?? []) visit(answer.item ?? []);
    }
  };
  visit(items);
  return found;
}
