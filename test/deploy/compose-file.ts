import { readFileSync } from 'node:fs';
import * as path from 'node:path';

import { load } from 'js-yaml';

import { projectRoot } from '../../infrastructure/project-root';

/** The parts of a Compose service these tests read. */
export interface ComposeService {
  image?: string;
  entrypoint?: string[];
  command?: string[];
  environment?: Record<string, string | number>;
  volumes?: string[];
  ports?: string[];
  depends_on?: Record<string, { condition: string }>;
  deploy?: { replicas?: string | number };
  container_name?: string;
}

export const composeFile = load(readFileSync(path.join(projectRoot(), 'docker-compose.yml'), 'utf8')) as {
  services: Record<string, ComposeService>;
};

export function composeService(name: string): ComposeService {
  const service = composeFile.services[name];
  if (!service) throw new Error(`docker-compose.yml has no service ${name}`);
  return service;
}

export function composeEnvironment(name: string): Record<string, string | number> {
  return composeService(name).environment ?? {};
}

/** The shell script a service runs with `bash -c`, as the shell sees it once Compose turns `$$` into `$`. */
export function composeScript(name: string): string {
  const service = composeService(name);
  if (service.entrypoint?.join(' ') !== '/bin/bash -c' || service.command?.length !== 1) {
    throw new Error(`${name} does not run a bash script`);
  }
  return service.command[0]!.replaceAll('$$', '$');
}
