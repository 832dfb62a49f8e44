#!/usr/bin/env node
'use strict';
/**
 * Writes catalog/dtr/: the sandbox payer's clinical criteria (catalog/clinical/criteria.json) as Da Vinci
 * DTR packages, one per drug with criteria: a FHIR R4 Questionnaire asking each top-level criterion's
 * question, and a CQL library (FHIR 4.0.1, FHIRHelpers 4.0.1) with one define per criterion that answers
 * it from the patient's record. The CQL is compiled to ELM with the reference translator
 * (scripts/cql-to-elm/), which only this script runs; catalog/dtr/manifest.json records the sha256 of
 * the CQL each ELM was compiled from, so a test tells stale outputs apart without Java.
 *
 *   node scripts/generate-dtr-packages.js   (npm run generate:dtr)
 *
 * The packages ask a drug's default criteria: formulary_overrides (criteria some plans omit or add) are
 * not in them, as one canonical per drug is what the sandbox's CRD service names.
 *
 * How the CQL reads the record (infrastructure/dtr/patient-record.ts writes it so):
 * - age: AgeInYears() / AgeInMonths() against Today(), from Patient.birthDate;
 * - diagnosis: a Condition coded in ICD-10-CM in one of the families (dots and case ignored), unless
 *   refuted or entered in error; false when every condition is coded and none is in a family;
 * - measurement: final (amended, corrected) Observations with the measurement's LOINC code, a
 *   valueQuantity in its canonical UCUM unit, and an effectiveDateTime within max_age_days. The newest
 *   one that decides answers; a value with a comparator ("≥ 30") decides only when it can;
 * - prior therapy: MedicationStatements whose medicationCodeableConcept text or coding display names one
 *   of the therapies (case-insensitive, whole words). A trial's length in days is its first dosage's
 *   timing.repeat.boundsRange (low: at least, high: at most; equal when exact). A statement stopped
 *   with the statusReason coding THERAPY_OUTCOME_SYSTEM#intolerance-or-contraindication stands for the
 *   trial; status not-taken denies one (its boundsRange, the length denied);
 * - documentation: not coded data, so no define: the item waits for a person (a nested one is null).
 * Every define is true, false when the record contradicts the criterion, or null when it cannot tell.
 */
const { createHash } = require('node:crypto');
const { execFileSync } = require('node:child_process');
const { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');
const TARGET = path.join(ROOT, 'catalog/dtr');
const TRANSLATOR = path.join(ROOT, 'scripts/cql-to-elm/cql-to-elm.sh');

const FHIR_BASE = 'http://sandbox.healthcare-access-api.example/fhir';
const QUESTIONNAIRE_BASE = `${FHIR_BASE}/Questionnaire`;
const LIBRARY_BASE = `${FHIR_BASE}/Library`;
const THERAPY_OUTCOME_SYSTEM = `${FHIR_BASE}/CodeSystem/therapy-outcome`;
const ENDED_BY_INTOLERANCE_CODE = 'intolerance-or-contraindication';

const DTR_QUESTIONNAIRE_PROFILE =
  'http://hl7.org/fhir/us/davinci-dtr/StructureDefinition/dtr-std-questionnaire';
const CQF_LIBRARY = 'http://hl7.org/fhir/StructureDefinition/cqf-library';
const INITIAL_EXPRESSION =
  'http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-initialExpression';

const FHIR_HELPERS = {
  name: 'FHIRHelpers',
  version: '4.0.1',
  url: 'http://hl7.org/fhir/Library/FHIRHelpers',
  title: 'FHIR Helpers',
  bundled: 'org/hl7/fhir/FHIRHelpers-4.0.1.cql',
  cql: 'FHIRHelpers-4.0.1.cql',
  elm: 'FHIRHelpers-4.0.1.elm.json',
};

/** The LOINC code and canonical UCUM unit of each measurement name (domain/clinical/measurements.ts). */
const MEASUREMENTS = {
  a1c: { loinc: '4548-4', display: 'Hemoglobin A1c/Hemoglobin.total in Blood', ucum: '%' },
  ldl: {
    loinc: '13457-7',
    display: 'Cholesterol in LDL [Mass/volume] in Serum or Plasma by calculation',
    ucum: 'mg/dL',
  },
  bmi: { loinc: '39156-5', display: 'Body mass index (BMI) [Ratio]', ucum: 'kg/m2' },
  eosinophils: { loinc: '26449-9', display: 'Eosinophils [#/volume] in Blood', ucum: '/uL' },
  ige: { loinc: '19113-0', display: 'IgE [Units/volume] in Serum or Plasma', ucum: '[IU]/mL' },
};

/** domain/clinical/criterion-checks.ts counts a month as 30 days and a week as 7. */
const LENGTH_DAYS = { days: 1, weeks: 7, months: 30 };

const JUDGES = {
  '>=': 'At Least',
  '>': 'Above',
  '<=': 'At Most',
  '<': 'Below',
};

function sha256(text) {
  return createHash('sha256').update(text).digest('hex');
}

function pascal(id) {
  return id
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0].toUpperCase() + word.slice(1))
    .join('');
}

function cqlString(text) {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function cqlDecimal(value) {
  return Number.isInteger(value) ? `${value}.0` : String(value);
}

function isLeaf(node) {
  return 'check' in node;
}

function childrenOf(node) {
  return node.all_of ?? node.any_of;
}

/** Whole words of the lower-cased name, plural allowed, as the evidence reader finds a therapy. */
function therapyPattern(therapies) {
  const terms = [...new Set(therapies.map((therapy) => therapy.trim().toLowerCase()))];
  terms.sort((a, b) => b.length - a.length || a.localeCompare(b));
  const escaped = terms.map((term) => term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return `(?:|.*[^a-z0-9])(?:${escaped.join('|')})(?:e?s)?(?:[^a-z0-9].*|)`;
}

function lengthInDays(length) {
  if (!length) return 0;
  const [unit, amount] = Object.entries(length)[0];
  return amount * LENGTH_DAYS[unit];
}

function ageExpression(check) {
  const bound = (limit, comparator) =>
    'years' in limit
      ? `AgeInYears() ${comparator} ${limit.years}`
      : `AgeInMonths() ${comparator} ${limit.months}`;
  const parts = [
    ...(check.minimum ? [bound(check.minimum, '>=')] : []),
    ...(check.maximum ? [bound(check.maximum, '<=')] : []),
  ];
  return parts.length > 0 ? parts.join(' and ') : 'true';
}

/** What a leaf's define computes, and the helpers it needs. */
function leafExpression(check, needs) {
  switch (check.kind) {
    case 'age':
      return ageExpression(check);
    case 'diagnosis': {
      needs.add('diagnosis');
      const prefixes = check.code_prefixes.map((prefix) =>
        cqlString(prefix.toUpperCase().replace(/[\s.]/g, '')),
      );
      return `"Diagnosis In Families"({ ${prefixes.join(', ')} })`;
    }
    case 'measurement': {
      const measurement = MEASUREMENTS[check.name];
      if (!measurement) throw new Error(`No LOINC code for the measurement ${check.name}`);
      needs.add('measurement').add(`judge ${check.comparator}`).add(`code ${check.name}`);
      const recent =
        check.max_age_days === undefined
          ? ''
          : `\n          and "Observed On"(O) >= Today() - ${check.max_age_days} days`;
      return [
        'First(',
        '    (',
        `      [Observation: "${measurementCodeName(check.name)}"] O`,
        `        where "Is Final"(O)${recent}`,
        `        return Tuple { observedOn: "Observed On"(O), verdict: "${JUDGES[check.comparator]}"("Quantity In"(O, ${cqlString(measurement.ucum)}), ${cqlDecimal(check.threshold)}) }`,
        '    ) T',
        '      where T.verdict is not null',
        '      sort by observedOn desc',
        '  ).verdict',
      ].join('\n');
    }
    case 'prior_therapy':
      needs.add('therapy');
      return `"Therapy Verdict"("Statements Naming"(${cqlString(therapyPattern(check.therapies))}), ${cqlDecimal(lengthInDays(check.minimum_duration))})`;
    case 'documentation':
      return 'null as Boolean';
    default:
      throw new Error(`Unknown check kind ${check.kind}`);
  }
}

function measurementCodeName(name) {
  return `${name.toUpperCase()} (LOINC ${MEASUREMENTS[name].loinc})`;
}

/**
 * The expression answering a node: a leaf's define, or its children joined with CQL's three-valued and /
 * or, which give what domain/clinical/criteria-evaluation.ts gives a group (false wins an and, true an or,
 * and otherwise an unknown child leaves the group unknown).
 */
function nodeReference(node) {
  if (isLeaf(node)) return `"${node.id}"`;
  const joiner = node.all_of ? ' and ' : ' or ';
  return `(${childrenOf(node).map(nodeReference).join(joiner)})`;
}

function comment(text) {
  return `// ${text.replace(/\s+/g, ' ')}`;
}

const HELPERS = {
  diagnosis: `// The conditions that count: neither refuted nor entered in error.
define "Conditions":
  [Condition] C
    where not exists (C.verificationStatus.coding V where V.code.value in { 'refuted', 'entered-in-error' })

// Their ICD-10-CM codes, upper case without dots or spaces, so a family compares however a code is written.
define "ICD-10-CM Codes":
  flatten (
    "Conditions" C
      return (
        C.code.coding K
          where K.system.value = 'http://hl7.org/fhir/sid/icd-10-cm'
          return Upper(ReplaceMatches(K.code.value, '[.\\\\s]', ''))
      )
  )

define "Has Uncoded Condition":
  exists ("Conditions" C where not exists (C.code.coding K where K.system.value = 'http://hl7.org/fhir/sid/icd-10-cm'))

// The coded conditions are the request's whole statement of what is treated: a family missing from
// them is not met. A condition without an ICD-10-CM code might be in the family, so then, as without
// any condition, the record cannot tell.
define function "Diagnosis In Families"(families List<String>):
  if exists ("ICD-10-CM Codes" Coded where exists (families F where StartsWith(Coded, F))) then true
  else if not exists "Conditions" or "Has Uncoded Condition" then null
  else false`,

  measurement: `define function "Is Final"(O Observation):
  O.status.value in { 'final', 'amended', 'corrected' }

define function "Observed On"(O Observation):
  date from (O.effective as FHIR.dateTime).value

// Only values in the measurement's canonical unit are compared: a value in another unit is not read.
define function "Quantity In"(O Observation, ucum String):
  if (O.value as FHIR.Quantity).code.value = ucum then O.value as FHIR.Quantity else null

// A quantity with a comparator ("> 30") bounds the value on one side only: it decides a threshold
// when the bound does, and is null otherwise.
define function "Low"(Q FHIR.Quantity):
  if Q.comparator is null or Q.comparator.value in { '>', '>=' } then Q.value.value else null

define function "Low Inclusive"(Q FHIR.Quantity):
  Q.comparator is null or Q.comparator.value = '>='

define function "High"(Q FHIR.Quantity):
  if Q.comparator is null or Q.comparator.value in { '<', '<=' } then Q.value.value else null

define function "High Inclusive"(Q FHIR.Quantity):
  Q.comparator is null or Q.comparator.value = '<='`,

  'judge >=': `define function "At Least"(Q FHIR.Quantity, threshold Decimal):
  case
    when "Low"(Q) >= threshold then true
    when "High"(Q) < threshold or ("High"(Q) = threshold and not "High Inclusive"(Q)) then false
    else null
  end`,

  'judge >': `define function "Above"(Q FHIR.Quantity, threshold Decimal):
  case
    when "Low"(Q) > threshold or ("Low"(Q) = threshold and not "Low Inclusive"(Q)) then true
    when "High"(Q) <= threshold then false
    else null
  end`,

  'judge <=': `define function "At Most"(Q FHIR.Quantity, threshold Decimal):
  case
    when "High"(Q) <= threshold then true
    when "Low"(Q) > threshold or ("Low"(Q) = threshold and not "Low Inclusive"(Q)) then false
    else null
  end`,

  'judge <': `define function "Below"(Q FHIR.Quantity, threshold Decimal):
  case
    when "High"(Q) < threshold or ("High"(Q) = threshold and not "High Inclusive"(Q)) then true
    when "Low"(Q) >= threshold then false
    else null
  end`,

  therapy: `define function "Medication Names"(S MedicationStatement):
  { Lower((S.medication as FHIR.CodeableConcept).text.value) }
    union (((S.medication as FHIR.CodeableConcept).coding) K return Lower(K.display.value))

define function "Statements Naming"(pattern String):
  [MedicationStatement] S
    where not (S.status.value in { 'entered-in-error', 'intended' })
      and exists (("Medication Names"(S)) N where Matches(N, pattern))

define function "Ended By Intolerance"(S MedicationStatement):
  exists (
    S.statusReason R
      where exists (
        R.coding K
          where K.system.value = ${cqlString(THERAPY_OUTCOME_SYSTEM)}
            and K.code.value = ${cqlString(ENDED_BY_INTOLERANCE_CODE)}
      )
  )

// The trial's length in days: at least its low, at most its high (absent when open-ended).
define function "Trial Length"(S MedicationStatement):
  First(S.dosage D where D.timing.repeat.bounds is FHIR.Range return D.timing.repeat.bounds as FHIR.Range)

// As domain/clinical/criterion-checks.ts judgeTrial: an intolerance or contraindication stands for the
// trial; a trial long enough meets it, one shorter than required does not; a denied trial does not,
// unless it denies only a trial longer than required.
define function "Trial Verdict"(S MedicationStatement, requiredDays Decimal):
  case
    when "Ended By Intolerance"(S) then true
    when S.status.value = 'not-taken' then
      if Coalesce("Trial Length"(S).low.value.value, 0.0) <= requiredDays then false else null
    when Coalesce("Trial Length"(S).low.value.value, 0.0) >= requiredDays then true
    when "Trial Length"(S).high.value.value < requiredDays then false
    else null
  end

define function "Therapy Verdict"(statements List<MedicationStatement>, requiredDays Decimal):
  if exists (statements S where "Trial Verdict"(S, requiredDays) is true) then true
  else if exists (statements S where "Trial Verdict"(S, requiredDays) is false) then false
  else null`,
};

const HELPER_ORDER = Object.keys(HELPERS);

function drugTitle(drug) {
  return drug.brand_name ? `${drug.brand_name} (${drug.generic_name})` : drug.generic_name;
}

function libraryCql(entry, drug, name, version) {
  const needs = new Set();
  const defines = [];
  const seen = new Set();
  const leafDefine = (leaf, question) => {
    if (seen.has(leaf.id)) throw new Error(`${entry.drug_id}: the criterion id ${leaf.id} is used twice`);
    seen.add(leaf.id);
    const reason =
      leaf.check.kind === 'documentation'
        ? [comment('Documents are not coded data: a person answers this.')]
        : [];
    defines.push(
      [
        ...(question ? [comment(question)] : []),
        comment(leaf.description),
        ...reason,
        `define "${leaf.id}":`,
        `  ${leafExpression(leaf.check, needs)}`,
      ].join('\n'),
    );
  };
  const walk = (node) => {
    if (isLeaf(node)) leafDefine(node, null);
    else childrenOf(node).forEach(walk);
  };
  for (const criterion of entry.criteria.all_of) {
    if (isLeaf(criterion)) {
      if (criterion.check.kind === 'documentation') continue;
      leafDefine(criterion, criterion.question);
      continue;
    }
    childrenOf(criterion).forEach(walk);
    if (seen.has(criterion.id))
      throw new Error(`${entry.drug_id}: the criterion id ${criterion.id} is used twice`);
    seen.add(criterion.id);
    defines.push(
      [comment(criterion.question), `define "${criterion.id}":`, `  ${nodeReference(criterion)}`].join('\n'),
    );
  }
  const measured = [...needs].filter((need) => need.startsWith('code ')).map((need) => need.slice(5));
  const codes = [...new Set(measured)]
    .sort()
    .map(
      (measurement) =>
        `code "${measurementCodeName(measurement)}": ${cqlString(MEASUREMENTS[measurement].loinc)} from "LOINC" display ${cqlString(MEASUREMENTS[measurement].display)}`,
    );
  const helpers = HELPER_ORDER.filter((helper) => needs.has(helper)).map((helper) => HELPERS[helper]);
  return [
    `// ${drugTitle(drug)}: the sandbox payer's prior authorization criteria, one define per question of`,
    `// its Questionnaire (${QUESTIONNAIRE_BASE}/${entry.drug_id}).`,
    '// Generated by scripts/generate-dtr-packages.js from catalog/clinical/criteria.json: do not edit.',
    `library ${name} version '${version}'`,
    '',
    "using FHIR version '4.0.1'",
    '',
    "include FHIRHelpers version '4.0.1' called FHIRHelpers",
    ...(codes.length > 0 ? ['', 'codesystem "LOINC": \'http://loinc.org\'', '', ...codes] : []),
    '',
    'context Patient',
    '',
    ...[...defines, ...helpers].flatMap((block) => [block, '']),
  ].join('\n');
}

function questionnaireItem(criterion, libraryName) {
  const answeredByCql = !(isLeaf(criterion) && criterion.check.kind === 'documentation');
  return {
    ...(answeredByCql
      ? {
          extension: [
            {
              url: INITIAL_EXPRESSION,
              valueExpression: {
                language: 'text/cql',
                expression: `"${libraryName}".${criterion.id}`,
              },
            },
          ],
        }
      : {}),
    linkId: criterion.id,
    text: criterion.question,
    type: 'boolean',
    required: true,
  };
}

function escapeXml(text) {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function questionnaire(entry, drug, library, version) {
  const title = `${drugTitle(drug)} prior authorization`;
  const questions = entry.criteria.all_of
    .map((criterion) => `<li>${escapeXml(criterion.question)}</li>`)
    .join('');
  return {
    resourceType: 'Questionnaire',
    id: entry.drug_id,
    meta: { profile: [DTR_QUESTIONNAIRE_PROFILE] },
    text: {
      status: 'generated',
      div: `<div xmlns="http://www.w3.org/1999/xhtml"><p>${escapeXml(title)}</p><ol>${questions}</ol></div>`,
    },
    extension: [{ url: CQF_LIBRARY, valueCanonical: `${library.url}|${library.version}` }],
    url: `${QUESTIONNAIRE_BASE}/${entry.drug_id}`,
    version,
    name: `${library.name.replace(/Criteria$/, '')}PriorAuthorization`,
    title,
    status: 'active',
    subjectType: ['Patient'],
    publisher: 'Sandbox payer (healthcare-access-api)',
    description: `The sandbox payer's clinical criteria for ${drugTitle(drug)}, its default policy (plans whose formulary omits or adds criteria are not distinguished).`,
    item: entry.criteria.all_of.map((criterion) => questionnaireItem(criterion, library.name)),
  };
}

/**
 * What the generator writes before compiling, from the criteria and drug catalogs: per drug with criteria
 * its Questionnaire and CQL, and the manifest's entries without the hashes compiling records. Pure, so a
 * test compares it with the committed files.
 */
function dtrSources(criteriaCatalog, drugCatalog) {
  const drugs = new Map(drugCatalog.drugs.map((drug) => [drug.id, drug]));
  const packages = [...criteriaCatalog.drugs]
    .sort((a, b) => a.drug_id.localeCompare(b.drug_id))
    .map((entry) => {
      const drug = drugs.get(entry.drug_id);
      if (!drug) throw new Error(`criteria.json names ${entry.drug_id}, which drugs.json does not list`);
      const name = `Sandbox${pascal(entry.drug_id)}Criteria`;
      // The content decides the version, so a canonical `url|version` names one set of questions and logic.
      const unversioned = libraryCql(entry, drug, name, '');
      const provisional = questionnaire(entry, drug, { name, url: '', version: '' }, '');
      const version = sha256(unversioned + JSON.stringify(provisional)).slice(0, 12);
      const library = {
        name,
        url: `${LIBRARY_BASE}/${name}`,
        version,
        title: `${drugTitle(drug)} prior authorization criteria`,
        cql: `${entry.drug_id}/library.cql`,
        elm: `${entry.drug_id}/library.elm.json`,
        depends_on: [FHIR_HELPERS.name],
      };
      return {
        drugId: entry.drug_id,
        questionnairePath: `${entry.drug_id}/questionnaire.json`,
        questionnaire: questionnaire(entry, drug, library, version),
        cql: libraryCql(entry, drug, name, version),
        library,
      };
    });
  const fhirHelpers = {
    name: FHIR_HELPERS.name,
    url: FHIR_HELPERS.url,
    version: FHIR_HELPERS.version,
    title: FHIR_HELPERS.title,
    cql: FHIR_HELPERS.cql,
    elm: FHIR_HELPERS.elm,
    depends_on: [],
  };
  return {
    packages,
    manifest: {
      generated_by: 'npm run generate:dtr (scripts/generate-dtr-packages.js)',
      translator: `info.cqframework:cql-to-elm:${translatorVersion()}`,
      questionnaires: packages.map((pkg) => ({
        drug_id: pkg.drugId,
        url: pkg.questionnaire.url,
        version: pkg.questionnaire.version,
        path: pkg.questionnairePath,
        library: pkg.library.name,
      })),
      libraries: [fhirHelpers, ...packages.map((pkg) => pkg.library)],
    },
  };
}

function translatorVersion() {
  const pom = readFileSync(path.join(ROOT, 'scripts/cql-to-elm/pom.xml'), 'utf8');
  const match = /<cql\.version>([^<]+)<\/cql\.version>/.exec(pom);
  if (!match) throw new Error('scripts/cql-to-elm/pom.xml names no cql.version');
  return match[1];
}

function readJson(file) {
  return JSON.parse(readFileSync(path.join(ROOT, file), 'utf8'));
}

/** The JSON written is as Prettier writes it, so `npm run check` finds nothing to change in catalog/dtr/. */
async function writeJson(file, value) {
  const prettier = require('prettier');
  const options = { ...(await prettier.resolveConfig(file)), filepath: file };
  writeFileSync(
    file,
    await prettier.format(typeof value === 'string' ? value : JSON.stringify(value), options),
  );
}

async function main() {
  const { packages, manifest } = dtrSources(
    readJson('catalog/clinical/criteria.json'),
    readJson('catalog/drugs.json'),
  );
  const current = new Set(packages.map((pkg) => pkg.drugId));
  mkdirSync(TARGET, { recursive: true });
  for (const entry of readdirSync(TARGET, { withFileTypes: true })) {
    if (entry.isDirectory() && !current.has(entry.name))
      rmSync(path.join(TARGET, entry.name), { recursive: true });
  }
  for (const pkg of packages) {
    mkdirSync(path.join(TARGET, pkg.drugId), { recursive: true });
    await writeJson(path.join(TARGET, pkg.questionnairePath), pkg.questionnaire);
    writeFileSync(path.join(TARGET, pkg.library.cql), pkg.cql);
  }
  const at = (file) => path.join(TARGET, file);
  execFileSync(
    'bash',
    [
      TRANSLATOR,
      `export:${FHIR_HELPERS.bundled}=${at(FHIR_HELPERS.cql)}`,
      ...manifest.libraries.map((library) => `compile:${at(library.cql)}=${at(library.elm)}`),
    ],
    { stdio: ['ignore', 'inherit', 'inherit'] },
  );
  for (const library of manifest.libraries)
    await writeJson(at(library.elm), readFileSync(at(library.elm), 'utf8'));
  const hashOf = (file) => sha256(readFileSync(at(file)));
  manifest.libraries = manifest.libraries.map((library) => ({
    ...library,
    cql_sha256: hashOf(library.cql),
    elm_sha256: hashOf(library.elm),
  }));
  await writeJson(at('manifest.json'), manifest);
  process.stdout.write(`Wrote ${packages.length} DTR packages to catalog/dtr/\n`);
}

module.exports = { dtrSources, THERAPY_OUTCOME_SYSTEM, ENDED_BY_INTOLERANCE_CODE, MEASUREMENTS };

if (require.main === module) {
  main().catch((error) => {
    process.stderr.write(`${error.stack ?? error}\n`);
    process.exitCode = 1;
  });
}
