import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

import { questionnaireResponseOf } from '../../domain/dtr/questionnaire-response';
import type { FhirQuestionnaire } from '../../domain/dtr/fhir-questionnaire';
import { readNextQuestion } from '../../infrastructure/connectors/dtr/next-question-client';
import { prefillQuestionnaire } from '../../infrastructure/dtr/cql-prefill';
import type { FhirBundle } from '../../infrastructure/dtr/cql-prefill';
import { DTR_USAGE } from './dtr-usage';
import { readQuestionnaire, readQuestionnairePackage } from '../../infrastructure/dtr/questionnaire-package';

export interface CommandOutput {
  stdout(text: string): void;
  stderr(text: string): void;
}

const processOutput: CommandOutput = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

/**
 * `dtr:prepopulate`: what the worker's prefill would answer for a package and a record, for an
 * operator checking a payer's package before it reaches a case. Exits 2 on a usage mistake, 1 when a
 * file cannot be read; the expressions that found nothing go to stderr.
 */
export async function runDtrCommand(argv: string[], output: CommandOutput = processOutput): Promise<number> {
  let values: {
    package?: string;
    bundle?: string;
    now?: string;
    context?: string[];
    patient?: string;
    served?: string;
  };
  try {
    ({ values } = parseArgs({
      args: argv.slice(1),
      options: {
        package: { type: 'string' },
        bundle: { type: 'string' },
        now: { type: 'string' },
        patient: { type: 'string' },
        context: { type: 'string', multiple: true },
        served: { type: 'string' },
      },
    }));
  } catch (error) {
    return usage(output, (error as Error).message);
  }
  if (!values.package || !values.bundle) return usage(output, 'dtr:prepopulate needs --package and --bundle');
  const now = values.now === undefined ? new Date() : new Date(values.now);
  if (Number.isNaN(now.getTime()))
    return usage(output, `--now takes an ISO date and time, not ${values.now}`);

  try {
    const read = readQuestionnairePackage(readJson(values.package, '--package'));
    const bundle = readJson(values.bundle, '--bundle') as FhirBundle;
    const served = values.served ? servedQuestionnaire(readJson(values.served, '--served')) : undefined;
    const pkg = served ? { ...read, questionnaire: served } : read;
    if (read.adaptive && !served)
      output.stderr(
        'The questionnaire is adaptive: its questions come from $next-question; only the items it carries are prefilled (--served prefills what an answer served).\n',
      );
    for (const library of pkg.libraries_without_elm)
      output.stderr(`Library ${library.name} has CQL but no ELM JSON, so its expressions cannot run here.\n`);
    const patientId =
      values.patient ??
      bundle.entry?.find((entry) => entry.resource?.resourceType === 'Patient')?.resource?.id;
    const result = await prefillQuestionnaire(pkg, bundle, {
      now,
      ...(patientId === undefined ? {} : { patientId }),
      ...(values.context ? { context: values.context } : {}),
    });
    const response = questionnaireResponseOf(pkg.canonical, result.items, {
      subject: { reference: `Patient/${patientId}` },
      context: (values.context ?? []).map((reference) => ({ reference, type: reference.split('/')[0] })),
      authored: now.toISOString(),
      status: 'in-progress',
    });
    output.stdout(`${JSON.stringify(response, null, 2)}\n`);
    if (result.unanswered_expressions.length > 0)
      output.stderr(`No answer from: ${result.unanswered_expressions.join(', ')}\n`);
    return 0;
  } catch (error) {
    output.stderr(`${(error as Error).message}\n`);
    return 1;
  }
}

/** The Questionnaire a `$next-question` answer served (its contained one), or a Questionnaire given as is. */
function servedQuestionnaire(json: unknown): FhirQuestionnaire {
  const resource = json as Record<string, unknown> | null;
  if (resource?.resourceType === 'Questionnaire') return readQuestionnaire(resource);
  return readNextQuestion(json).questionnaire as unknown as FhirQuestionnaire;
}

function readJson(file: string, flag: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new Error(`${flag}: cannot read ${file}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`${flag}: ${file} is not JSON`);
  }
}

function usage(output: CommandOutput, message: string): number {
  output.stderr(`${message}\n\n${DTR_USAGE}\n`);
  return 2;
}
