import { readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** What global setup hands to every test file: the one dev server of this run. */
export interface TestEnvironmentInfo {
  temporalAddress: string;
  namespace: string;
  temporalDbFile: string;
  temporalBinary: string;
  workDir: string;
}

export const ENVIRONMENT_FILE = path.join(os.tmpdir(), `healthcare-access-api-tests-${process.ppid}.json`);

export function testEnvironment(): TestEnvironmentInfo {
  const file = process.env.HAA_TEST_ENVIRONMENT_FILE ?? ENVIRONMENT_FILE;
  return JSON.parse(readFileSync(file, 'utf8')) as TestEnvironmentInfo;
}
