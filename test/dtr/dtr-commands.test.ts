import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import type { FhirQuestionnaireResponse } from '../../domain/dtr/fhir-questionnaire';
import { runDtrCommand } from '../../src/admin/dtr-commands';
import {
  answersByLinkId,
  INFERNO_FIXTURES,
  pat015BundleFile,
  respiratoryPackageFile,
  RESPIRATORY_ORDER,
} from './inferno-fixtures';

async function prepopulate(...flags: string[]) {
  let stdout = '';
  let stderr = '';
  const status = await runDtrCommand(['dtr:prepopulate', ...flags], {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
  });
  return { status, stdout, stderr };
}

describe('dtr:prepopulate in the admin CLI', () => {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'haa-dtr-cli-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it("prints the QuestionnaireResponse prefilled from Inferno's respiratory package and pat015", async () => {
    const result = await prepopulate(
      '--package',
      respiratoryPackageFile,
      '--bundle',
      pat015BundleFile,
      '--now',
      '2024-04-07T18:32:03.440Z',
      '--context',
      RESPIRATORY_ORDER,
    );
    expect(result.status).toBe(0);
    const response = JSON.parse(result.stdout) as FhirQuestionnaireResponse & { extension: unknown[] };
    expect(response).toMatchObject({
      resourceType: 'QuestionnaireResponse',
      questionnaire: 'urn:inferno:dtr-test-kit:respiratory-assist-devices',
      subject: { reference: 'Patient/pat015' },
      authored: '2024-04-07T18:32:03.440Z',
    });
    expect(response.extension).toContainEqual({
      url: 'http://hl7.org/fhir/us/davinci-dtr/StructureDefinition/qr-context',
      valueReference: { reference: RESPIRATORY_ORDER, type: 'DeviceRequest' },
    });
    expect(response.extension).toContainEqual(
      expect.objectContaining({ url: 'http://hl7.org/fhir/us/davinci-dtr/StructureDefinition/intendedUse' }),
    );
    expect(answersByLinkId(response.item).get('SIGPNP.3')).toEqual([
      expect.objectContaining({ valueDate: '2024-04-07' }),
    ]);
    expect(answersByLinkId(response.item).size).toBe(11);
  });

  it("prefills, for Inferno's adaptive dinner package, the questions its $next-question answer served", async () => {
    const bundle = path.join(folder, 'rosa.json');
    writeFileSync(
      bundle,
      JSON.stringify({
        resourceType: 'Bundle',
        entry: [
          {
            resource: {
              resourceType: 'Patient',
              id: 'rosa',
              name: [{ use: 'official', family: 'Zzadaptive', given: ['Rosa'] }],
            },
          },
        ],
      }),
    );
    const result = await prepopulate(
      '--package',
      path.join(INFERNO_FIXTURES, 'questionnaire_dinner_order_adaptive.json'),
      '--bundle',
      bundle,
      '--served',
      path.join(INFERNO_FIXTURES, 'dinner_order_adaptive_next_question_initial.json'),
    );
    expect(result.status).toBe(0);
    const answers = answersByLinkId((JSON.parse(result.stdout) as FhirQuestionnaireResponse).item);
    expect(answers.get('PBD.1')).toEqual([expect.objectContaining({ valueString: 'Zzadaptive' })]);
    expect(answers.get('PBD.2')).toEqual([expect.objectContaining({ valueString: 'Rosa' })]);
  });

  it('lists the expressions that found nothing on stderr', async () => {
    const result = await prepopulate('--package', respiratoryPackageFile, '--bundle', pat015BundleFile);
    expect(result.stderr).toMatch(/^No answer from: .*"BasicPractitionerInfoPrepopulation"\.NPI/m);
  });

  it('exits 1 naming what is wrong with a malformed package', async () => {
    const file = path.join(folder, 'patient.json');
    writeFileSync(file, JSON.stringify({ resourceType: 'Patient' }));
    const result = await prepopulate('--package', file, '--bundle', pat015BundleFile);
    expect(result).toMatchObject({ status: 1, stdout: '' });
    expect(result.stderr).toMatch(/The package is a Patient; expected a Parameters/);
  });

  it('exits 2 with its usage when a file is not named', async () => {
    const result = await prepopulate('--package', respiratoryPackageFile);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/needs --package and --bundle/);
  });
});
