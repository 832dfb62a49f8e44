import { CodeService, DateTime, Executor, Repository } from 'cql-execution';
import { FHIRWrapper, PatientSource } from 'cql-exec-fhir';
import fhirpath from 'fhirpath';
import fhirpathR4Model from 'fhirpath/fhir-context/r4';

import type { AnswerValue, CodedAnswer, QuestionnaireItemState } from '../../domain/dtr/questionnaire';
import { codesOfValueSet, itemsOfQuestionnaire, valueSetsOf } from '../../domain/dtr/questionnaire-reading';
import type { FhirExtension, FhirQuestionnaireItem } from '../../domain/dtr/fhir-questionnaire';
import { matchingOption, valueIssue } from '../../domain/dtr/answer-values';
import { NEVER_ENABLED, withEnablement } from '../../domain/dtr/enablement';
import { questionnaireResponseOf } from '../../domain/dtr/questionnaire-response';
import type { PackageLibrary, QuestionnairePackage } from './questionnaire-package';

const SDC = 'http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-';
const INITIAL = [`${SDC}initialExpression`, 'http://hl7.org/fhir/StructureDefinition/cqf-expression'];
const CALCULATED = `${SDC}calculatedExpression`;
const CANDIDATE = `${SDC}candidateExpression`;
const ENABLE_WHEN = `${SDC}enableWhenExpression`;
const CQF_LIBRARY = 'http://hl7.org/fhir/StructureDefinition/cqf-library';
const CQL_LANGUAGES = ['text/cql', 'text/cql-identifier', 'text/cql.identifier'];
const FHIR_TYPE = /^\{http:\/\/hl7\.org\/fhir\}([A-Za-z]+)$/;

/** The patient's record as prefill reads it: a FHIR R4 Bundle of the patient and their resources. */
export interface FhirBundle {
  resourceType: 'Bundle';
  entry?: { resource?: { resourceType: string; id?: string; [element: string]: unknown } }[];
}

export interface PrefillOptions {
  /** CQL's Now() and Today(): the moment the questionnaire is filled. */
  now: Date;
  /** The patient the questionnaire is about, when the bundle holds more than one. */
  patientId?: string;
  /**
   * The resources the questionnaire is about (`DeviceRequest/devreqe0470`): the order CRD was asked
   * about, bound to the libraries' parameters of its type (`parameter device_request DeviceRequest`).
   * Without it, a parameter takes the bundle's only resource of its type, and stays null among several.
   */
  context?: string[];
}

export interface PrefillResult {
  items: QuestionnaireItemState[];
  /** The expressions (`"Library".Define`) that gave no usable answer: no data, no ELM, or an error. */
  unanswered_expressions: string[];
}

interface ExpressionRef {
  library: string;
  define: string;
}

type LibraryResults = Map<string, Record<string, unknown> | undefined>;

/**
 * Fills a package's Questionnaire from the patient's record with the payer's CQL (DTR §4.3): every
 * library an item's expression calls runs once over the bundle, then each item takes its
 * initialExpression or calculatedExpression (origin `auto`), its candidateExpression as options, and
 * its enableWhenExpression. Knows no clock or time limit: the caller's pool thread enforces that.
 */
export async function prefillQuestionnaire(
  pkg: QuestionnairePackage,
  patientRecord: FhirBundle,
  options: PrefillOptions,
): Promise<PrefillResult> {
  const record = recordFor(patientRecord, options.patientId);
  const defaultLibraries = cqfLibraries(pkg);
  const expressions = new Map<string, ItemExpressions>();
  const visit = (items: FhirQuestionnaireItem[]): void => {
    for (const item of items) {
      expressions.set(item.linkId, expressionsOf(item.extension ?? [], pkg, defaultLibraries));
      visit(item.item ?? []);
    }
  };
  visit(pkg.questionnaire.item ?? []);

  const wanted = new Set<string>();
  for (const found of expressions.values())
    for (const ref of [found.initial, found.candidate, found.enableWhen])
      if (ref && typeof ref !== 'string' && 'library' in ref) wanted.add(ref.library);
  const results = await runLibraries(pkg, record, options, [...wanted]);

  const unanswered: string[] = [];
  let items = itemsOfQuestionnaire(pkg.questionnaire, pkg.valueSets).map((item) => {
    const found = expressions.get(item.link_id);
    if (!found) return item;
    let next = item;
    if (found.candidate) {
      const candidates = valueOf(found.candidate, results);
      if (candidates.answered) next = { ...next, options: codingsOf(candidates.value) };
    }
    if (found.enableWhen && typeof found.enableWhen !== 'string' && 'library' in found.enableWhen) {
      const enabled = valueOf(found.enableWhen, results);
      if (enabled.answered && enabled.value === false) next = { ...next, ...NEVER_ENABLED };
    }
    if (found.initial) {
      const initial = valueOf(found.initial, results);
      const answer = initial.answered ? answerFor(next, initial.value) : null;
      if (answer === null) unanswered.push(labelOf(found.initial));
      else
        next = {
          ...next,
          answer,
          origin: 'auto',
          source: { kind: 'cql', reference: labelOf(found.initial) },
        };
    }
    return next;
  });
  items = withEnablement(fhirPathEnablement(pkg, items, expressions));
  return { items, unanswered_expressions: [...new Set(unanswered)] };
}

interface ItemExpressions {
  /** initialExpression or calculatedExpression; a string when it names nothing that can run. */
  initial?: ExpressionRef | string;
  candidate?: ExpressionRef | string;
  enableWhen?: ExpressionRef | string | { fhirpath: string };
}

function expressionsOf(
  extensions: FhirExtension[],
  pkg: QuestionnairePackage,
  defaults: PackageLibrary[],
): ItemExpressions {
  const found: ItemExpressions = {};
  for (const extension of extensions) {
    const expression = extension.valueExpression as { language?: string; expression?: string } | undefined;
    if (!expression?.expression) continue;
    const cql = CQL_LANGUAGES.includes(expression.language ?? '');
    const ref = cql ? resolveExpression(expression.expression, pkg, defaults) : expression.expression;
    if (INITIAL.includes(extension.url) || extension.url === CALCULATED) found.initial ??= ref;
    else if (extension.url === CANDIDATE) found.candidate = ref;
    else if (extension.url === ENABLE_WHEN)
      found.enableWhen = expression.language === 'text/fhirpath' ? { fhirpath: expression.expression } : ref;
  }
  return found;
}

/** `"Library".Define`, `Library.Define` or a bare define, found in the Questionnaire's cqf-libraries. */
function resolveExpression(
  expression: string,
  pkg: QuestionnairePackage,
  defaults: PackageLibrary[],
): ExpressionRef | string {
  const qualified = /^(?:"([^"]+)"|([A-Za-z_][\w-]*))\.(?:"([^"]+)"|([A-Za-z_]\w*))$/.exec(expression.trim());
  if (qualified) {
    const name = qualified[1] ?? qualified[2]!;
    const define = qualified[3] ?? qualified[4]!;
    const library = pkg.libraries.find(
      (candidate) => candidate.name === name || candidate.resource_name === name,
    );
    return library ? { library: library.name, define } : `"${name}".${define}`;
  }
  const bare = /^(?:"([^"]+)"|([A-Za-z_]\w*))$/.exec(expression.trim());
  if (!bare) return expression;
  const define = bare[1] ?? bare[2]!;
  const library = defaults.find((candidate) => definesOf(candidate).has(define));
  return library ? { library: library.name, define } : define;
}

function cqfLibraries(pkg: QuestionnairePackage): PackageLibrary[] {
  return (pkg.questionnaire.extension ?? [])
    .filter((extension) => extension.url === CQF_LIBRARY)
    .map((extension) => String(extension.valueCanonical ?? '').split('|')[0])
    .flatMap((url) => pkg.libraries.filter((library) => library.url === url));
}

function definesOf(library: PackageLibrary): Set<string> {
  const statements = library.elm.library.statements as { def?: { name: string }[] } | undefined;
  return new Set((statements?.def ?? []).map((statement) => statement.name));
}

function labelOf(ref: ExpressionRef | string): string {
  return typeof ref === 'string' ? ref : `"${ref.library}".${ref.define}`;
}

function valueOf(
  ref: ExpressionRef | string | { fhirpath: string },
  results: LibraryResults,
): { answered: true; value: unknown } | { answered: false } {
  if (typeof ref === 'string' || !('library' in ref)) return { answered: false };
  const library = results.get(ref.library);
  if (!library || !(ref.define in library)) return { answered: false };
  return { answered: true, value: library[ref.define] };
}

/** The patient's bundle with the chosen patient first, where cql-exec-fhir looks for them. */
function recordFor(bundle: FhirBundle, patientId: string | undefined): FhirBundle {
  if (bundle?.resourceType !== 'Bundle' || !Array.isArray(bundle.entry))
    throw new Error('The patient record is not a FHIR Bundle with entries.');
  const patients = bundle.entry.filter((entry) => entry.resource?.resourceType === 'Patient');
  const patient =
    patientId === undefined ? patients[0] : patients.find((entry) => entry.resource?.id === patientId);
  if (!patient)
    throw new Error(
      patientId === undefined
        ? 'The patient record holds no Patient.'
        : `The patient record holds no Patient ${patientId}.`,
    );
  return { ...bundle, entry: [patient, ...bundle.entry.filter((entry) => entry !== patient)] };
}

/** Runs each library once for the patient; a library that fails leaves its expressions unanswered. */
async function runLibraries(
  pkg: QuestionnairePackage,
  record: FhirBundle,
  options: PrefillOptions,
  names: string[],
): Promise<LibraryResults> {
  const repository = new Repository(
    Object.fromEntries(pkg.libraries.map((library) => [library.name, library.elm])),
  );
  const codeService = new CodeService(valueSetDictionary(pkg));
  const now = DateTime.fromJSDate(options.now, 0);
  const patientId = record.entry![0]!.resource!.id;
  const results: LibraryResults = new Map();
  for (const name of names) {
    const library = pkg.libraries.find((candidate) => candidate.name === name)!;
    try {
      const fhirVersion = fhirVersionOf(library);
      const executor = new Executor(
        repository.resolve(library.name, library.version ?? undefined),
        codeService,
        parametersFor(library, record, options.context, fhirVersion),
      );
      const executed = await withPatientSource(fhirVersion, record, (source) => executor.exec(source, now));
      const patientResults = executed.patientResults as Record<string, Record<string, unknown>>;
      results.set(name, patientResults[patientId ?? ''] ?? Object.values(patientResults)[0]);
    } catch {
      // The library's expressions are reported unanswered; the error could quote the record, so it goes.
      results.set(name, undefined);
    }
  }
  return results;
}

/**
 * Making a PatientSource or FHIRWrapper parses FHIR's model info, about half a second each, so each
 * FHIR version's are made once per process: wrappers are stateless, sources are lent to one run at a time.
 */
const wrappers = new Map<string, FHIRWrapper>();
const idleSources = new Map<string, PatientSource[]>();

/**
 * Parses FHIR R4's model info ahead of the first prefill: an evaluation thread does it before it takes
 * tasks, so the parse never counts against a payer's CQL time limit.
 */
export function primeCqlPrefill(): void {
  wrapperFor('4.0.1');
  const idle = idleSourcesOf('4.0.1');
  if (idle.length === 0) idle.push(newPatientSource('4.0.1'));
}

function wrapperFor(fhirVersion: string): FHIRWrapper {
  let wrapper = wrappers.get(fhirVersion);
  if (!wrapper) {
    wrapper = fhirVersion === '4.0.1' ? FHIRWrapper.FHIRv401() : FHIRWrapper.FHIRv400();
    wrappers.set(fhirVersion, wrapper);
  }
  return wrapper;
}

async function withPatientSource<T>(
  fhirVersion: string,
  record: FhirBundle,
  run: (source: PatientSource) => Promise<T>,
): Promise<T> {
  const idle = idleSourcesOf(fhirVersion);
  const source = idle.pop() ?? newPatientSource(fhirVersion);
  source.loadBundles([record]);
  try {
    return await run(source);
  } finally {
    source.reset();
    idle.push(source);
  }
}

function idleSourcesOf(fhirVersion: string): PatientSource[] {
  const idle = idleSources.get(fhirVersion) ?? [];
  idleSources.set(fhirVersion, idle);
  return idle;
}

function newPatientSource(fhirVersion: string): PatientSource {
  return fhirVersion === '4.0.1' ? PatientSource.FHIRv401() : PatientSource.FHIRv400();
}

function fhirVersionOf(library: PackageLibrary): string {
  const usings = library.elm.library.usings as
    { def?: { localIdentifier: string; version?: string }[] } | undefined;
  return usings?.def?.find((using) => using.localIdentifier === 'FHIR')?.version ?? '4.0.1';
}

/** The library's FHIR-resource parameters, bound to the context resources of their type. */
function parametersFor(
  library: PackageLibrary,
  record: FhirBundle,
  context: string[] | undefined,
  fhirVersion: string,
): Record<string, unknown> {
  const parameters = library.elm.library.parameters as
    { def?: { name: string; parameterTypeSpecifier?: { name?: string } }[] } | undefined;
  const wrapper = wrapperFor(fhirVersion);
  const bound: Record<string, unknown> = {};
  for (const parameter of parameters?.def ?? []) {
    const type = FHIR_TYPE.exec(parameter.parameterTypeSpecifier?.name ?? '')?.[1];
    if (!type) continue;
    const candidates = (record.entry ?? [])
      .map((entry) => entry.resource)
      .filter((resource) => resource?.resourceType === type);
    const chosen = context
      ? candidates.find((resource) => context.includes(`${type}/${resource?.id}`))
      : candidates.length === 1
        ? candidates[0]
        : undefined;
    if (chosen) bound[parameter.name] = wrapper.wrap(chosen);
  }
  return bound;
}

/** The package's ValueSets (and the Questionnaire's contained ones) as cql-execution's code service reads them. */
function valueSetDictionary(
  pkg: QuestionnairePackage,
): Record<string, Record<string, { code: string; system: string }[]>> {
  const dictionary: Record<string, Record<string, { code: string; system: string }[]>> = {};
  for (const valueSet of valueSetsOf(pkg.questionnaire, pkg.valueSets)) {
    if (!valueSet.url) continue;
    dictionary[valueSet.url] ??= {};
    dictionary[valueSet.url]![valueSet.version ?? ''] = codesOfValueSet(valueSet).map((coded) => ({
      code: coded.code,
      system: coded.system ?? '',
    }));
  }
  return dictionary;
}

/**
 * A CQL result as the item's answer: lists flattened (several values only for a repeating item),
 * each converted to the item's type and checked as a person's answer would be; null when none fit.
 */
function answerFor(item: QuestionnaireItemState, result: unknown): AnswerValue | AnswerValue[] | null {
  const values = flattened(result)
    .map((value) => converted(item, value))
    .filter((value): value is AnswerValue => value !== null && valueIssue(item, value) === null);
  if (values.length === 0) return null;
  if (item.repeats) return values;
  return values.length === 1 ? values[0]! : null;
}

function flattened(result: unknown): unknown[] {
  if (result === null || result === undefined) return [];
  return Array.isArray(result) ? result.flatMap(flattened) : [result];
}

interface CqlValue {
  isCode?: boolean;
  isConcept?: boolean;
  isQuantity?: boolean;
  isDate?: boolean;
  isDateTime?: boolean;
  code?: string;
  system?: string;
  display?: string;
  codes?: CqlValue[];
  value?: number;
  unit?: string;
  year?: number;
  month?: number | null;
  day?: number | null;
  _json?: unknown;
  toString(): string;
}

function converted(item: QuestionnaireItemState, raw: unknown): AnswerValue | null {
  const value = fhirJsonOf(raw);
  if (typeof value === 'boolean') return item.type === 'boolean' ? value : null;
  if (typeof value === 'number') {
    if (item.type === 'string' || item.type === 'text') return String(value);
    return value;
  }
  if (typeof value === 'string') return stringAnswer(item, value);
  if (typeof value !== 'object' || value === null) return null;
  const cql = value as CqlValue;
  if (cql.isCode || (typeof cql.code === 'string' && !cql.isQuantity)) return codedAnswer(item, cql);
  if (cql.isConcept) {
    const codes = (cql.codes ?? []).map((code) => codedAnswer(item, code));
    return codes.find((code) => code !== null) ?? null;
  }
  if (cql.isQuantity || (typeof cql.value === 'number' && 'unit' in cql)) {
    if (item.type === 'quantity') return { value: cql.value!, unit: cql.unit ?? null };
    return typeof cql.value === 'number' ? cql.value : null;
  }
  if (cql.isDateTime || cql.isDate) return temporalAnswer(item, cql);
  const coding = (value as { coding?: CqlValue[] }).coding?.[0];
  return coding ? codedAnswer(item, coding) : null;
}

/** cql-exec-fhir's FHIR objects carry their JSON; a CQL expression may return one unconverted. */
function fhirJsonOf(value: unknown): unknown {
  if (typeof value === 'object' && value !== null && '_json' in value) return (value as CqlValue)._json;
  return value;
}

function temporalAnswer(item: QuestionnaireItemState, value: CqlValue): string | null {
  const date =
    value.month && value.day
      ? `${String(value.year).padStart(4, '0')}-${String(value.month).padStart(2, '0')}-${String(value.day).padStart(2, '0')}`
      : null;
  if (item.type === 'date') return date;
  if (item.type === 'dateTime') return value.isDate ? date : value.toString();
  if (item.type === 'string' || item.type === 'text') return value.toString();
  return null;
}

function stringAnswer(item: QuestionnaireItemState, value: string): AnswerValue | null {
  if (item.type !== 'choice' && item.type !== 'open-choice') return value;
  const option = item.options?.find((candidate) => candidate.code === value || candidate.display === value);
  if (option) return option;
  return item.type === 'open-choice' ? value : null;
}

function codedAnswer(item: QuestionnaireItemState, code: CqlValue): AnswerValue | null {
  if (typeof code.code !== 'string') return null;
  const coding: CodedAnswer = { system: code.system ?? null, code: code.code, display: code.display ?? null };
  if (item.type === 'choice' || item.type === 'open-choice') {
    const option = matchingOption(item, coding);
    if (option) return option;
    return item.type === 'open-choice' ? (coding.display ?? coding.code) : null;
  }
  if (item.type === 'string' || item.type === 'text') return coding.display ?? coding.code;
  return null;
}

function codingsOf(result: unknown): CodedAnswer[] {
  return flattened(result)
    .map((value) => fhirJsonOf(value) as CqlValue)
    .filter((value) => typeof value?.code === 'string')
    .map((value) => ({ system: value.system ?? null, code: value.code!, display: value.display ?? null }));
}

/**
 * FHIRPath enableWhenExpressions, read once over the answers prefill gave (SDC lets them change as
 * people answer; the console does not re-run them). One that cannot be read leaves the item shown.
 */
function fhirPathEnablement(
  pkg: QuestionnairePackage,
  items: QuestionnaireItemState[],
  expressions: Map<string, ItemExpressions>,
): QuestionnaireItemState[] {
  const withFhirPath = items.filter((item) => {
    const enableWhen = expressions.get(item.link_id)?.enableWhen;
    return typeof enableWhen === 'object' && 'fhirpath' in enableWhen;
  });
  if (withFhirPath.length === 0) return items;
  const response = questionnaireResponseOf(pkg.canonical, withEnablement(items), {
    subject: {},
    authored: '',
    status: 'in-progress',
  });
  return items.map((item) => {
    const enableWhen = expressions.get(item.link_id)?.enableWhen;
    if (typeof enableWhen !== 'object' || !('fhirpath' in enableWhen)) return item;
    try {
      const [first] = fhirpath.evaluate(
        response,
        enableWhen.fhirpath,
        { resource: response, questionnaire: pkg.questionnaire },
        fhirpathR4Model,
      ) as unknown[];
      return first === false ? { ...item, ...NEVER_ENABLED } : item;
    } catch {
      return item;
    }
  });
}
