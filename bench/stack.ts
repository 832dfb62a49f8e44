import { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { lstatSync, readdirSync } from 'node:fs';
import * as path from 'node:path';

import { Client, Connection } from '@temporalio/client';

import { loadConfig } from '../infrastructure/config/config';
import { dataConverter } from '../infrastructure/temporal/temporal-connection';
import { localEncryption } from '../src/bootstrap';
import { ProcessMemory } from './process-tree';

export type Api = (route: string, init?: RequestInit) => Promise<Response>;

/** A running stack of the service the bench drives: local mode or the cluster. */
export interface BenchStack {
  api: Api;
  /** A Temporal client on the stack's server, with the stack's own payload key. */
  temporal: Client;
  namespace: string;
  /** RSS and CPU time of every process of the stack, labelled by what it runs. */
  processMemory(): ProcessMemory[];
  /** Each Node process's Prometheus endpoint, by the name its launcher gave it. */
  metricsUrls: Array<{ name: string; url: string }>;
  /** Bytes the stack's stores hold now, by store. */
  storedBytes(): Promise<Array<{ store: string; bytes: number }>>;
  /** The connection string of the stack's own database, where the bench needs to write as a worker would. */
  databaseUrl?(): Promise<string | undefined>;
  /** Stops every process; the data folder is removed unless `keepData` asks to leave it for tracing. */
  stop(options?: { keepData?: boolean }): Promise<void>;
}

export const benchApiKey = () => `hak_bench_${randomUUID().replace(/-/g, '')}`;

/** What every stack's launcher runs with: a throwaway data folder, a known key, the rate limit out of the way. */
export const benchEnvironment = (dataDir: string, apiKey: string): NodeJS.ProcessEnv => ({
  ...process.env,
  DATA_DIR: dataDir,
  DEV_API_KEY: apiKey,
  LOG_LEVEL: 'warn',
  RATE_LIMIT_PER_SECOND: '100000',
  RATE_LIMIT_BURST: '100000',
});

/** Resolves with the launcher's output once it has printed `marker`. */
export function waitForOutput(launcher: ChildProcess, marker: string, name: string): Promise<string> {
  let output = '';
  return new Promise<string>((resolve, reject) => {
    launcher.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(marker)) resolve(output);
    });
    launcher.once('exit', () => reject(new Error(`${name} exited during start-up`)));
  });
}

/** Requests to the given API base URLs in turn, so each process gets its share. */
export function roundRobinApi(baseUrls: string[], apiKey: string): Api {
  let next = 0;
  return (route, init = {}) => {
    const baseUrl = baseUrls[next++ % baseUrls.length]!;
    const headers = new Headers(init.headers);
    headers.set('Authorization', `Bearer ${apiKey}`);
    headers.set('Content-Type', 'application/json');
    return fetch(`${baseUrl}${route}`, { ...init, headers });
  };
}

/** A client on the stack's Temporal frontend that reads payloads with the key kept in `dataDir`. */
export async function stackClient(
  address: string,
  namespace: string,
  dataDir: string,
): Promise<{ client: Client; connection: Connection }> {
  const connection = await Connection.connect({ address });
  const encryption = localEncryption(loadConfig('local', { DATA_DIR: dataDir }));
  return {
    client: new Client({ connection, namespace, dataConverter: dataConverter(encryption) }),
    connection,
  };
}

/** Bytes of every file under `folder` but logs (allocated on disk would differ; this is what was written). */
export function folderBytes(folder: string): number {
  let bytes = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const entryPath = path.join(folder, entry.name);
    try {
      if (entry.isDirectory()) bytes += folderBytes(entryPath);
      else if (entry.isFile() && !entry.name.endsWith('.log')) bytes += lstatSync(entryPath).size;
    } catch {
      // Removed while we looked (a journal, a socket).
    }
  }
  return bytes;
}
