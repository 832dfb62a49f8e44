import { execFile } from 'node:child_process';
import { AddressInfo } from 'node:net';
import { promisify } from 'node:util';

import { testEnvironment } from '../harness/environment';
import type { TestApp } from './test-app';

/**
 * Sends a signal with the Temporal CLI through this app's codec endpoint, as an operator would, and
 * answers the CLI's output. Asynchronous: the CLI calls back into this very process for the codec.
 */
export async function signalWithTemporalCli(
  testApp: TestApp,
  operatorKey: string,
  signal: { workflowId: string; name: string; input: object },
): Promise<{ stdout: string; stderr: string }> {
  if (!testApp.app.getHttpServer().address()) await testApp.app.listen(0, '127.0.0.1');
  const { port } = testApp.app.getHttpServer().address() as AddressInfo;
  return promisify(execFile)(
    testEnvironment().temporalBinary,
    [
      'workflow',
      'signal',
      '--address',
      testApp.config.temporal.address,
      '--namespace',
      testApp.config.temporal.namespace,
      '--workflow-id',
      signal.workflowId,
      '--name',
      signal.name,
      '--input',
      JSON.stringify(signal.input),
      '--codec-endpoint',
      `http://127.0.0.1:${port}/codec`,
      '--codec-auth',
      `Bearer ${operatorKey}`,
    ],
    { encoding: 'utf8', timeout: 30_000 },
  );
}
