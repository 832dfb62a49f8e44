import { readFileSync } from 'node:fs';
import * as path from 'node:path';

import { projectRoot } from '../../infrastructure/project-root';
import { CUSTOM_SEARCH_ATTRIBUTES } from '../../domain/temporal/search-attributes';
import {
  CASES_NAMESPACE,
  CASES_NAMESPACE_RETENTION_DAYS,
  EMBEDDED_SCHEMAS,
  TEMPORAL_CONFIG_DIR,
  TEMPORAL_CONFIG_ENVIRONMENT,
  TEMPORAL_DATABASE,
  TEMPORAL_UI_CONFIG_DIR,
  TEMPORAL_VISIBILITY_DATABASE,
} from '../../infrastructure/temporal/production-server';
import {
  composeEnvironment as environment,
  composeFile,
  composeScript as script,
  composeService as service,
} from './compose-file';

// The versions live in the script that builds the binaries, which runs before any TypeScript is built.
const { TEMPORAL_SERVER_VERSION, TEMPORAL_UI_SERVER_VERSION } = pinnedTemporalVersions();

function pinnedTemporalVersions(): { TEMPORAL_SERVER_VERSION: string; TEMPORAL_UI_SERVER_VERSION: string } {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('../../scripts/ensure-temporal.js');
}

/** Where a bind mount of a folder of this repository appears inside the service's container. */
function mountTarget(name: string, folder: string): string {
  const mount = (service(name).volumes ?? [])
    .map((volume) => volume.split(':'))
    .find(([source]) => path.resolve(projectRoot(), source!) === folder);
  expect(mount).toBeDefined();
  expect(mount![2]).toBe('ro');
  return mount![1]!;
}

/** Every environment variable a templated configuration file reads. */
function variablesRead(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...new Set([...text.matchAll(/env "([A-Z0-9_]+)"/g)].map((match) => match[1]!))];
}

const SERVER_VERSION = TEMPORAL_SERVER_VERSION.slice(1);
const TEMPORAL_JOBS = ['temporal-schema', 'temporal-namespace'];

describe('docker-compose.yml, against the Temporal server the scale test runs', () => {
  it('runs the server and its tools at the version the scale test builds', () => {
    expect(service('temporal').image).toBe(`temporalio/server:${SERVER_VERSION}`);
    for (const job of TEMPORAL_JOBS) {
      expect(service(job).image).toMatch(new RegExp(`^temporalio/admin-tools:${SERVER_VERSION}-`));
    }
  });

  it('runs Temporal Web at the version the scale test builds', () => {
    expect(service('temporal-ui').image).toBe(`temporalio/ui:${TEMPORAL_UI_SERVER_VERSION.slice(1)}`);
  });

  it('uses no auto-setup image, whose configuration is not ours', () => {
    const images = Object.values(composeFile.services).map(({ image }) => image ?? '');
    expect(images.filter((image) => image.includes('auto-setup'))).toEqual([]);
  });

  it('starts the server with the repository’s configuration in the production environment', () => {
    const configDir = mountTarget('temporal', TEMPORAL_CONFIG_DIR);
    expect(script('temporal')).toContain(
      `exec temporal-server --root / --config ${configDir.slice(1)} --env ${TEMPORAL_CONFIG_ENVIRONMENT} start`,
    );
    expect(environment('temporal').TEMPORAL_DYNAMIC_CONFIG_FILE).toBe(`${configDir}/dynamicconfig.yaml`);
  });

  it('gives the server every variable its configuration reads, but the optional mTLS ones', () => {
    const exported = [...script('temporal').matchAll(/export ([A-Z0-9_]+)=/g)].map((match) => match[1]!);
    const given = [...Object.keys(environment('temporal')), ...exported];
    const read = variablesRead(path.join(TEMPORAL_CONFIG_DIR, `${TEMPORAL_CONFIG_ENVIRONMENT}.yaml`));
    const required = read.filter((variable) => !variable.startsWith('TEMPORAL_TLS_'));
    expect(required.filter((variable) => !given.includes(variable))).toEqual([]);
  });

  it('leaves every variable of the scripts to the shell: no single `$` that Compose would fill in itself', () => {
    for (const name of ['temporal', ...TEMPORAL_JOBS]) {
      expect(service(name).command![0]!.replaceAll('$$', '')).not.toContain('$');
    }
  });

  it('binds the server for the compose network and announces the container’s own address', () => {
    expect(environment('temporal').TEMPORAL_BIND_ON_IP).toBe('0.0.0.0');
    expect(script('temporal')).toMatch(/export TEMPORAL_BROADCAST_ADDRESS="\$\(getent hosts /);
  });

  it('keeps every membership port below 32768, the limit of the column that stores it', () => {
    const membershipPorts = Object.entries(environment('temporal'))
      .filter(([variable]) => variable.endsWith('_MEMBERSHIP_PORT'))
      .map(([, port]) => Number(port));
    expect(membershipPorts).toHaveLength(4);
    for (const port of membershipPorts) expect(port).toBeLessThan(32768);
  });

  it('sets up the databases the server reads, with the schemas the scale test applies', () => {
    const job = environment('temporal-schema');
    expect([job.TEMPORAL_DB_NAME, job.TEMPORAL_VISIBILITY_DB_NAME]).toEqual([
      TEMPORAL_DATABASE,
      TEMPORAL_VISIBILITY_DATABASE,
    ]);
    expect({
      [job.TEMPORAL_DB_NAME!]: job.TEMPORAL_SCHEMA,
      [job.TEMPORAL_VISIBILITY_DB_NAME!]: job.TEMPORAL_VISIBILITY_SCHEMA,
    }).toEqual(EMBEDDED_SCHEMAS);
    for (const setting of ['HOST', 'PORT', 'USER', 'PASSWORD', 'NAME']) {
      expect(job[`TEMPORAL_DB_${setting}`]).toEqual(environment('temporal')[`TEMPORAL_DB_${setting}`]);
    }
    expect(job.TEMPORAL_VISIBILITY_DB_NAME).toEqual(environment('temporal').TEMPORAL_VISIBILITY_DB_NAME);
  });

  it('creates, sets up and migrates each database with the schema tool, as the scale test does', () => {
    const steps = script('temporal-schema');
    expect(steps).toContain('create-database');
    expect(steps).toContain('setup-schema --version 0.0');
    expect(steps).toContain('update-schema --schema-name "$schema"');
    expect(steps).toContain('set_up "$TEMPORAL_DB_NAME" "$TEMPORAL_SCHEMA"');
    expect(steps).toContain('set_up "$TEMPORAL_VISIBILITY_DB_NAME" "$TEMPORAL_VISIBILITY_SCHEMA"');
  });

  it('starts the server only once the schema job has succeeded', () => {
    expect(service('temporal').depends_on).toEqual({
      'temporal-schema': { condition: 'service_completed_successfully' },
    });
  });

  it('registers the cases namespace with the scale test’s retention', () => {
    expect(environment('temporal-namespace')).toMatchObject({
      TEMPORAL_NAMESPACE: CASES_NAMESPACE,
      NAMESPACE_RETENTION: `${CASES_NAMESPACE_RETENTION_DAYS}d`,
      TEMPORAL_ADDRESS: `temporal:${environment('temporal').TEMPORAL_FRONTEND_GRPC_PORT}`,
    });
    expect(script('temporal-namespace')).toMatch(
      /temporal operator namespace create [^\n]*--namespace "\$TEMPORAL_NAMESPACE" \\\n\s*--retention "\$NAMESPACE_RETENTION"/,
    );
  });

  it('creates every custom search attribute with its type', () => {
    const created = Object.fromEntries(
      [...script('temporal-namespace').matchAll(/--name (\w+) --type (\w+)/g)].map((match) => [
        match[1],
        match[2],
      ]),
    );
    expect(created).toEqual(CUSTOM_SEARCH_ATTRIBUTES);
  });

  it('serves Temporal Web with the repository’s configuration and the cases namespace', () => {
    const configDir = mountTarget('temporal-ui', TEMPORAL_UI_CONFIG_DIR);
    expect(service('temporal-ui').entrypoint).toEqual([
      '/home/ui-server/ui-server',
      '--root',
      '/',
      '--config',
      configDir.slice(1),
      '--env',
      TEMPORAL_CONFIG_ENVIRONMENT,
      'start',
    ]);
    expect(environment('temporal-ui').TEMPORAL_DEFAULT_NAMESPACE).toBe(CASES_NAMESPACE);
  });

  it('sets on Temporal Web only variables its configuration reads', () => {
    const read = variablesRead(path.join(TEMPORAL_UI_CONFIG_DIR, `${TEMPORAL_CONFIG_ENVIRONMENT}.yaml`));
    expect(Object.keys(environment('temporal-ui')).filter((variable) => !read.includes(variable))).toEqual(
      [],
    );
  });

  it('publishes the frontend and Temporal Web on 127.0.0.1 and no other port of Temporal’s', () => {
    expect(service('temporal').ports).toEqual(['127.0.0.1:7233:7233']);
    expect(service('temporal-ui').ports).toEqual(['127.0.0.1:8080:8080']);
    for (const job of TEMPORAL_JOBS) expect(service(job).ports).toBeUndefined();
  });

  it('runs two APIs, as the scale test does, each on a port of its own', () => {
    expect(String(service('api').deploy?.replicas)).toMatch(/:-2}$/);
    expect(service('api').container_name).toBeUndefined();
    expect(service('api').ports).toEqual(['${API_PORTS:-3000-3001}:3000']);
  });

  it('lets the workers scale: replicas, and no container name or published port that two would share', () => {
    expect(service('worker').deploy?.replicas).toBeDefined();
    expect(service('worker').container_name).toBeUndefined();
    expect(service('worker').ports).toBeUndefined();
  });

  it('points the API and the workers at the cases namespace on the temporal service, once it exists', () => {
    for (const name of ['api', 'worker']) {
      expect(environment(name)).toMatchObject({
        TEMPORAL_ADDRESS: `temporal:${environment('temporal').TEMPORAL_FRONTEND_GRPC_PORT}`,
        TEMPORAL_NAMESPACE: CASES_NAMESPACE,
      });
      expect(service(name).depends_on).toMatchObject({
        'temporal-namespace': { condition: 'service_completed_successfully' },
      });
    }
  });
});
