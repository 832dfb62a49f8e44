/**
 * NEEDS A BUILD: the pool's threads run the compiled dist/infrastructure/clinical/evaluation-thread.js
 * (`npm test` builds first; run `npm run build` before running this file alone).
 */
import { ApplicationFailure } from '@temporalio/common';

import { CLINICAL_EVALUATION_TIMED_OUT } from '../../domain/failures';
import { EvaluationPool } from '../../infrastructure/clinical/evaluation-pool';
import { readQuestionnairePackage } from '../../infrastructure/dtr/questionnaire-package';
import { ENDLESS_DEFINE } from './endless-cql';
import { EXPECTED_AUTHORED, infernoFixture, pat015, RESPIRATORY_ORDER } from './inferno-fixtures';

const endlessElm = {
  library: {
    identifier: { id: 'Endless', version: '1.0.0' },
    schemaIdentifier: { id: 'urn:hl7-org:elm', version: 'r1' },
    usings: {
      def: [
        { localIdentifier: 'System', uri: 'urn:hl7-org:elm-types:r1' },
        { localIdentifier: 'FHIR', uri: 'http://hl7.org/fhir', version: '4.0.1' },
      ],
    },
    contexts: { def: [{ name: 'Patient' }] },
    statements: {
      def: [
        {
          name: 'Patient',
          context: 'Patient',
          expression: {
            type: 'SingletonFrom',
            operand: { type: 'Retrieve', dataType: '{http://hl7.org/fhir}Patient' },
          },
        },
        ENDLESS_DEFINE,
      ],
    },
  },
};

const endlessPackage = readQuestionnairePackage({
  resourceType: 'Bundle',
  entry: [
    {
      resource: {
        resourceType: 'Questionnaire',
        url: 'urn:test:endless',
        item: [
          {
            linkId: '1',
            type: 'boolean',
            extension: [
              {
                url: 'http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-initialExpression',
                valueExpression: { language: 'text/cql', expression: '"Endless".Endless' },
              },
            ],
          },
        ],
      },
    },
    {
      resource: {
        resourceType: 'Library',
        url: 'urn:test:Endless',
        content: [
          {
            contentType: 'application/elm+json',
            data: Buffer.from(JSON.stringify(endlessElm)).toString('base64'),
          },
        ],
      },
    },
  ],
});

describe('DTR prefill in the clinical evaluation pool (needs dist/: npm run build first)', () => {
  let pool: EvaluationPool;
  afterEach(() => pool.close());

  it('prefills the respiratory package in a thread as it does inline', async () => {
    pool = new EvaluationPool({ threads: 1, taskTimeoutMs: 20_000 });
    const result = await pool.run({
      kind: 'dtr_prefill',
      package: readQuestionnairePackage(infernoFixture('questionnaire_package.json')),
      patientRecord: pat015(),
      now: EXPECTED_AUTHORED.toISOString(),
      context: [RESPIRATORY_ORDER],
    });
    expect(result.items.find((item) => item.link_id === 'PBD.1')).toMatchObject({
      answer: 'Oster',
      origin: 'auto',
    });
  });

  it('stops a payer library that runs past the time limit, with the named non-retryable failure', async () => {
    pool = new EvaluationPool({ threads: 1, taskTimeoutMs: 2_000 });
    const started = Date.now();
    const failure = await pool
      .run({
        kind: 'dtr_prefill',
        package: endlessPackage,
        patientRecord: pat015(),
        now: EXPECTED_AUTHORED.toISOString(),
      })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect(failure).toMatchObject({ type: CLINICAL_EVALUATION_TIMED_OUT, nonRetryable: true });
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
