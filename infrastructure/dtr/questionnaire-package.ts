import { ANSWERABLE_ITEM_TYPES } from '../../domain/dtr/questionnaire';
import type {
  FhirQuestionnaire,
  FhirQuestionnaireItem,
  FhirValueSet,
} from '../../domain/dtr/fhir-questionnaire';

/**
 * A payer's `$questionnaire-package` answer as prefill reads it (Da Vinci DTR STU 2 §4.4): one
 * Questionnaire, the CQL Libraries its expressions call (as compiled ELM JSON) and its ValueSets.
 */
export interface QuestionnairePackage {
  questionnaire: FhirQuestionnaire;
  /** `url|version`, or the url alone when the Questionnaire has no version. */
  canonical: string;
  title: string | null;
  libraries: PackageLibrary[];
  /**
   * Libraries that cannot run here: CQL source only (`text/cql`), no ELM. The expressions calling them
   * stay unanswered; the payer has to send ELM JSON (`application/elm+json`) for them to prefill.
   */
  libraries_without_elm: { name: string; url: string | null }[];
  valueSets: FhirValueSet[];
  /** An SDC adaptive questionnaire: its questions come from `$next-question`, not from this package. */
  adaptive: boolean;
}

export interface PackageLibrary {
  /** The CQL library's name, as expressions and `include` statements call it (ELM `identifier.id`). */
  name: string;
  version: string | null;
  /** The Library resource's canonical, which the Questionnaire's cqf-library extensions name. */
  url: string | null;
  /** The Library resource's own name, which may differ from the CQL name (`FHIRHelpers-4.0.0`). */
  resource_name: string | null;
  elm: ElmLibrary;
}

/** ELM JSON as cql-execution reads it; only the identifier is checked here. */
export interface ElmLibrary {
  library: { identifier: { id: string; version?: string }; [element: string]: unknown };
}

/** A package that cannot be read; the message names what is wrong (never patient data: packages hold none). */
export class InvalidQuestionnairePackageError extends Error {
  override readonly name = 'InvalidQuestionnairePackageError';
}

const ADAPTIVE_EXTENSION =
  'http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-questionnaireAdaptive';
const ADAPTIVE_PROFILES = [
  'http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-adapt',
  'http://hl7.org/fhir/us/davinci-dtr/StructureDefinition/dtr-questionnaire-adapt',
  'http://hl7.org/fhir/us/davinci-dtr/StructureDefinition/dtr-questionnaire-adapt-search',
];
const ITEM_TYPES: readonly string[] = [...ANSWERABLE_ITEM_TYPES, 'group', 'display'];

type Json = Record<string, unknown>;

/**
 * Reads a `$questionnaire-package` answer: a Parameters whose first `PackageBundle` holds the package
 * (a DTR service answers one per questionnaire asked for), or that Bundle alone. Throws
 * InvalidQuestionnairePackageError naming the first thing wrong.
 */
export function readQuestionnairePackage(json: unknown): QuestionnairePackage {
  const bundle = packageBundle(json);
  const resources = entriesOf(bundle);
  const questionnaires = resources.filter((resource) => resource.resourceType === 'Questionnaire');
  if (questionnaires.length !== 1)
    throw new InvalidQuestionnairePackageError(
      `The package bundle holds ${questionnaires.length} Questionnaires; a DTR package holds exactly one.`,
    );
  const questionnaire = readQuestionnaire(questionnaires[0]!);
  const libraries: PackageLibrary[] = [];
  const withoutElm: QuestionnairePackage['libraries_without_elm'] = [];
  for (const resource of resources.filter((candidate) => candidate.resourceType === 'Library')) {
    const library = readLibrary(resource);
    if (library) libraries.push(library);
    else withoutElm.push({ name: libraryLabel(resource), url: text(resource.url) });
  }
  const url = text(questionnaire.url);
  if (!url) throw new InvalidQuestionnairePackageError('The Questionnaire has no url (its canonical).');
  const version = text(questionnaire.version);
  return {
    questionnaire,
    canonical: version ? `${url}|${version}` : url,
    title: text(questionnaire.title),
    libraries,
    libraries_without_elm: withoutElm,
    valueSets: resources.filter(
      (resource) => resource.resourceType === 'ValueSet',
    ) as unknown as FhirValueSet[],
    adaptive: isAdaptive(questionnaire),
  };
}

function packageBundle(json: unknown): Json {
  if (!isObject(json)) throw new InvalidQuestionnairePackageError('The package is not a JSON object.');
  if (json.resourceType === 'Bundle') return json;
  if (json.resourceType !== 'Parameters')
    throw new InvalidQuestionnairePackageError(
      `The package is a ${describe(json.resourceType)}; expected a Parameters (the $questionnaire-package answer) or a Bundle.`,
    );
  const parameters = Array.isArray(json.parameter) ? json.parameter.filter(isObject) : [];
  const bundle = parameters.find((parameter) => parameter.name === 'PackageBundle')?.resource;
  if (!isObject(bundle) || bundle.resourceType !== 'Bundle')
    throw new InvalidQuestionnairePackageError(
      'The Parameters have no PackageBundle parameter holding a Bundle.',
    );
  return bundle;
}

function entriesOf(bundle: Json): Json[] {
  if (!Array.isArray(bundle.entry))
    throw new InvalidQuestionnairePackageError('The package bundle has no entries.');
  return bundle.entry.map((entry, index) => {
    const resource = isObject(entry) ? entry.resource : undefined;
    if (!isObject(resource) || typeof resource.resourceType !== 'string')
      throw new InvalidQuestionnairePackageError(`Entry ${index} of the package bundle holds no resource.`);
    return resource;
  });
}

/**
 * Checks a Questionnaire's items as the case reads them: every item with a linkId, unique across the
 * Questionnaire, and of a type this service answers (or a group or display). Throws
 * InvalidQuestionnairePackageError naming the first thing wrong.
 */
export function readQuestionnaire(resource: Json): FhirQuestionnaire {
  const seen = new Set<string>();
  const check = (items: unknown, path: string): void => {
    if (items === undefined) return;
    if (!Array.isArray(items)) throw new InvalidQuestionnairePackageError(`${path}.item is not a list.`);
    items.forEach((item: unknown, index) => {
      const at = `${path}.item[${index}]`;
      if (!isObject(item) || typeof item.linkId !== 'string' || item.linkId === '')
        throw new InvalidQuestionnairePackageError(`${at} has no linkId.`);
      if (seen.has(item.linkId))
        throw new InvalidQuestionnairePackageError(
          `linkId ${item.linkId} appears twice in the Questionnaire.`,
        );
      seen.add(item.linkId);
      if (typeof item.type !== 'string' || !ITEM_TYPES.includes(item.type))
        throw new InvalidQuestionnairePackageError(
          `Item ${item.linkId} has type ${describe(item.type)}, which this service does not answer (it takes ${ITEM_TYPES.join(', ')}).`,
        );
      check(item.item, at);
    });
  };
  check(resource.item, 'Questionnaire');
  return resource as unknown as FhirQuestionnaire & { item?: FhirQuestionnaireItem[] };
}

function readLibrary(resource: Json): PackageLibrary | undefined {
  const content = Array.isArray(resource.content) ? resource.content.filter(isObject) : [];
  const elmAttachment = content.find((attachment) => attachment.contentType === 'application/elm+json');
  if (!elmAttachment) return undefined;
  const label = libraryLabel(resource);
  if (typeof elmAttachment.data !== 'string')
    throw new InvalidQuestionnairePackageError(`Library ${label}'s ELM JSON has no base64 data.`);
  let elm: unknown;
  try {
    elm = JSON.parse(Buffer.from(elmAttachment.data, 'base64').toString('utf8'));
  } catch {
    throw new InvalidQuestionnairePackageError(
      `Library ${label}'s application/elm+json content is not JSON.`,
    );
  }
  const identifier = isObject(elm) && isObject(elm.library) ? elm.library.identifier : undefined;
  if (!isObject(identifier) || typeof identifier.id !== 'string')
    throw new InvalidQuestionnairePackageError(`Library ${label}'s ELM has no library identifier.`);
  return {
    name: identifier.id,
    version: text(identifier.version),
    url: text(resource.url),
    resource_name: text(resource.name),
    elm: elm as ElmLibrary,
  };
}

function isAdaptive(questionnaire: FhirQuestionnaire): boolean {
  const flagged = (questionnaire.extension ?? []).some(
    (extension) => extension.url === ADAPTIVE_EXTENSION && extension.valueBoolean !== false,
  );
  return (
    flagged || (questionnaire.meta?.profile ?? []).some((profile) => ADAPTIVE_PROFILES.includes(profile))
  );
}

function libraryLabel(resource: Json): string {
  return text(resource.name) ?? text(resource.url) ?? text(resource.id) ?? '(unnamed)';
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

function describe(value: unknown): string {
  return typeof value === 'string' ? value : value === undefined ? 'missing' : JSON.stringify(value);
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
