import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

import { defaultPayloadConverter } from '@temporalio/common';
import { temporal } from '@temporalio/proto';

import { EncryptionCodec } from '../../infrastructure/temporal/encryption-codec';
import { REPLAY_FIXTURE_ENCRYPTION } from './history';

/**
 * The recorded histories that the replay tests replay, and their manifest: each file's sha256 as
 * recorded. Histories accumulate and are never rewritten, so a file missing or changed against the
 * manifest is evidence lost, and the replay test says so.
 */
export const HISTORIES = path.join(__dirname, '..', 'fixtures', 'histories');
const MANIFEST = path.join(HISTORIES, 'manifest.json');

export const recordedHistoryFiles = (): string[] =>
  readdirSync(HISTORIES).filter((file) => file.endsWith('.binpb'));

export const sha256Of = (file: string): string =>
  createHash('sha256')
    .update(readFileSync(path.join(HISTORIES, file)))
    .digest('hex');

export function readManifest(): Record<string, string> {
  return JSON.parse(readFileSync(MANIFEST, 'utf8')) as Record<string, string>;
}

/** A new recording joins the manifest; an entry already there is never replaced. */
export function addToManifest(file: string): void {
  const manifest = readManifest();
  if (manifest[file] !== undefined)
    throw new Error(`${file} is already in the manifest of recorded histories`);
  writeFileSync(MANIFEST, `${JSON.stringify({ ...manifest, [file]: sha256Of(file) }, null, 2)}\n`);
}

export function readRecordedHistory(file: string): temporal.api.history.v1.History {
  return temporal.api.history.v1.History.decode(readFileSync(path.join(HISTORIES, file)));
}

/**
 * A case's workflow id is its case id, and a provider authorization's its authorization id, which the
 * recorded input holds; messages name the workflow they are addressed to, so each replays under its
 * own id, as a worker replays it after an eviction.
 */
export async function recordedWorkflowId(
  history: temporal.api.history.v1.IHistory,
): Promise<string | undefined> {
  const payloads = history.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads;
  if (!payloads?.length) return undefined;
  const [input] = await new EncryptionCodec(REPLAY_FIXTURE_ENCRYPTION).decode(payloads);
  const started = defaultPayloadConverter.fromPayload<{
    case?: { id?: unknown };
    authorization?: { id?: unknown };
  }>(input!);
  const id = started?.case?.id ?? started?.authorization?.id;
  return typeof id === 'string' ? id : undefined;
}
