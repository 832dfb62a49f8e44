import { readFileSync } from 'node:fs';

import { Client, Connection, ConnectionOptions, DataConverter } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import type { NativeConnection, NativeConnectionOptions } from '@temporalio/worker';
import type { Logger } from 'pino';

import { CUSTOM_SEARCH_ATTRIBUTES } from '../../domain/temporal/search-attributes';
import type { EncryptionSettings, TemporalSettings } from '../config/config';
import { EncryptionCodec } from './encryption-codec';

/**
 * The one data converter of client and worker, so each reads what the other wrote. The failure
 * converter goes by path because the worker also loads it inside the workflow sandbox.
 */
export function dataConverter(encryption: EncryptionSettings): DataConverter {
  return {
    payloadCodecs: [new EncryptionCodec(encryption)],
    failureConverterPath: require.resolve('./failure-converter'),
  };
}

/**
 * The worker's variant: it encrypts the same way but hands workflows a refused marker for any
 * payload that was not encrypted, so nobody without the keys can start, signal or update a case.
 */
export function workerDataConverter(encryption: EncryptionSettings): DataConverter {
  return {
    payloadCodecs: [new EncryptionCodec(encryption, { refuseUnencrypted: true })],
    failureConverterPath: require.resolve('./failure-converter'),
  };
}

function connectionOptions(settings: TemporalSettings): ConnectionOptions & NativeConnectionOptions {
  const tls = settings.tls
    ? {
        serverNameOverride: settings.tls.serverName,
        serverRootCACertificate: settings.tls.caCertPath ? readFileSync(settings.tls.caCertPath) : undefined,
        clientCertPair:
          settings.tls.clientCertPath && settings.tls.clientKeyPath
            ? {
                crt: readFileSync(settings.tls.clientCertPath),
                key: readFileSync(settings.tls.clientKeyPath),
              }
            : undefined,
      }
    : undefined;
  return {
    address: settings.address,
    tls,
    apiKey: settings.apiKey,
    // Hosted clusters route API-key calls by this header.
    metadata: settings.apiKey ? { 'temporal-namespace': settings.namespace } : undefined,
  };
}

export async function connectClient(
  settings: TemporalSettings,
  encryption: EncryptionSettings,
): Promise<Client> {
  const connection = await Connection.connect({ ...connectionOptions(settings), connectTimeout: '10s' });
  return new Client({ connection, namespace: settings.namespace, dataConverter: dataConverter(encryption) });
}

export async function connectWorkerConnection(settings: TemporalSettings): Promise<NativeConnection> {
  // Loaded here: the admin CLI's keys:status connects a client only, and the worker SDK cost it 0.15 s of CPU.
  const { NativeConnection } = await import('@temporalio/worker');
  return NativeConnection.connect(connectionOptions(settings));
}

/**
 * Registers our custom search attributes on an external cluster (the dev server registers them at
 * start). Idempotent; a hosted cluster that refuses the call keeps the attributes its operator made.
 */
export async function registerSearchAttributes(client: Client, logger: Logger): Promise<void> {
  try {
    const added = await addMissingSearchAttributes(client.connection, client.options.namespace);
    if (added.length > 0) logger.info({ search_attributes: added }, 'registered search attributes');
  } catch (error) {
    logger.warn(
      { err_name: (error as Error).name, search_attributes: Object.keys(CUSTOM_SEARCH_ATTRIBUTES) },
      'could not register search attributes; create them with `temporal operator search-attribute create`',
    );
  }
}

export class MistypedSearchAttributesError extends Error {
  override name = 'MistypedSearchAttributesError';
}

/**
 * Adds whichever of our search attributes the namespace lacks; returns the names it added. One that
 * exists with another type is refused: visibility would index it wrongly, and only an operator can
 * remove it.
 */
export async function addMissingSearchAttributes(
  connection: Pick<Connection, 'operatorService'>,
  namespace: string,
): Promise<string[]> {
  const indexedValueType = temporal.api.enums.v1.IndexedValueType;
  const typeOf = (type: string) =>
    indexedValueType[`INDEXED_VALUE_TYPE_${type.toUpperCase()}` as keyof typeof indexedValueType];
  const existing =
    (await connection.operatorService.listSearchAttributes({ namespace })).customAttributes ?? {};
  const mistyped = Object.entries(CUSTOM_SEARCH_ATTRIBUTES).filter(
    ([name, type]) => name in existing && existing[name] !== typeOf(type),
  );
  if (mistyped.length > 0) {
    throw new MistypedSearchAttributesError(
      `Search attributes exist with another type in namespace ${namespace}: ` +
        mistyped.map(([name, type]) => `${name} should be ${type}`).join(', '),
    );
  }
  const missing = Object.fromEntries(
    Object.entries(CUSTOM_SEARCH_ATTRIBUTES)
      .filter(([name]) => !(name in existing))
      .map(([name, type]) => [name, typeOf(type)]),
  );
  if (Object.keys(missing).length === 0) return [];
  await connection.operatorService.addSearchAttributes({ namespace, searchAttributes: missing });
  return Object.keys(missing);
}
