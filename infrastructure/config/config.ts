import { isIP } from 'node:net';
import * as path from 'node:path';

import type { CaseObjectType, ConnectorRetry } from '../../domain/cases/case-model';
import { DAY_MS } from '../../domain/durations';
import type { RetrySchedule } from '../../domain/webhooks/webhook-delivery';
import { RECYCLE_THREAD_AFTER_PAGES } from '../documents/reading-limits';

/** Which process is reading the configuration; local mode embeds the Temporal dev server. */
export type ProcessMode = 'local' | 'api' | 'worker' | 'admin';

export interface TemporalSettings {
  address: string;
  namespace: string;
  taskQueue: string;
  /**
   * Workflows a worker keeps in memory between tasks. A case waiting days for a reviewer needs none
   * of it, and one evicted is replayed from history at its next task, so the cache is sized for the
   * cases in motion, not the cases open.
   */
  maxCachedWorkflows: number;
  /**
   * How long a workflow task waits for the worker that has the workflow in memory (its sticky queue)
   * before any worker may take it: after a worker dies, its cases' next tasks wait this long.
   */
  stickyQueueTimeoutMs: number;
  tls?: {
    serverName?: string;
    caCertPath?: string;
    clientCertPath?: string;
    clientKeyPath?: string;
  };
  apiKey?: string;
  /** Temporal Web's base URL, so the console can link operators to a case's workflow; absent when unknown. */
  webUrl?: string;
}

export interface EncryptionSettings {
  /** key id -> 32-byte AES key; every id can decrypt, only `currentKeyId` encrypts. */
  keys: Map<string, Buffer>;
  currentKeyId: string;
}

/** How long the PostgreSQL pool waits before it gives up, so an outage answers 503 instead of hanging. */
export interface DatabaseTimeouts {
  /** Opening a connection, or waiting for a free one in a busy pool. */
  connectMs: number;
  /** The server cancels a statement running longer (0: never, for migrations). */
  statementMs: number;
  /** The client stops waiting for an answer after this (0: never); covers a server that stops answering. */
  queryMs: number;
}

/** The client waits this much longer than the server's statement timeout, so the server's cancel comes first. */
const QUERY_TIMEOUT_MARGIN_MS = 5_000;

export const DEFAULT_DATABASE_TIMEOUTS: DatabaseTimeouts = {
  connectMs: 5_000,
  statementMs: 10_000,
  queryMs: 10_000 + QUERY_TIMEOUT_MARGIN_MS,
};

/** Temporal's exponential activity retry, as the published webhook schedule. */
export type { RetrySchedule };

export interface WebhookSettings {
  /** CIDR ranges exempt from the SSRF policy (loopback in local mode and tests). */
  allowedTargets: string[];
  timeoutMs: number;
  /**
   * How long a delivery stays with the process that recorded or retried it past its first attempt's
   * time limit (or past its recording, where the API starts its workflow) before a worker's sweep may
   * hand it on, and how often workers sweep for such deliveries.
   */
  handOffMs: number;
  /**
   * How long a case event's first attempt may wait for GET to show the move it announces (the
   * workflow task carrying the move commits just after the event is published); a first attempt's
   * ownership of its delivery is longer by as much.
   */
  commitWaitMs: number;
  retry: RetrySchedule;
  /** The `iss` claim of every notification's JWT. */
  issuer: string;
}

export interface CaseSettings {
  reviewReminderMs: number;
  reviewExpiryMs: number;
  payerPollIntervalMs: number;
  /** How each payer or program hub call is retried before the case waits the outage out (`outage`). */
  connectorRetry: ConnectorRetry;
  /**
   * When a payer must decide a PA on a plan no regulation sets a deadline for (commercial, TRICARE,
   * other), counted from its receipt of the request. Defaults follow ERISA claims procedure
   * (29 CFR 2560.503-1(f)(2)): 15 days for a pre-service claim, 72 h for an urgent one. Part D and
   * Medicaid deadlines are the regulations' own (domain/cases/prior-authorization-deadlines.ts).
   */
  dueWithinMs: { standard: number; expedited: number };
  /** The internal target for a PA's clinical review (`review_due_at`), counted from creation. */
  reviewDueWithinMs: { standard: number; expedited: number };
  /**
   * How a case waits out a connector still unavailable after its activity's retries: the first wait,
   * doubling up to the longest, and how long after the outage was first seen each type stops waiting
   * and fails (a PA waits until its own review target or payer deadline, when still ahead). Keyed by
   * every case type, so a new one does not compile without its own; null for a type that does not
   * wait out outages (its case type has no `waitsOutOutages`, which the registry test holds).
   */
  outage: {
    firstRetryMs: number;
    longestRetryMs: number;
    deadlineMs: Readonly<Record<CaseObjectType, number | null>>;
  };
  /** HMAC key of the PatientRef search attribute (a keyed hash, never the patient id itself). */
  patientRefKey?: Buffer;
  /**
   * Closed cases whose last change is older than this are purged, and Temporal's namespace keeps
   * closed histories as long (docs/operations.md, "Case retention"). At least 1: Temporal's minimum.
   */
  retentionDays: number;
}

/** The worker threads that read clinical text, off the event loop (see docs/workflows.md, clinical eligibility). */
export interface ClinicalEvaluationSettings {
  threads: number;
  /**
   * A task running longer is stopped (its thread replaced) and fails its case non-retryably; at most
   * MAX_CLINICAL_EVALUATION_TIMEOUT_MS.
   */
  taskTimeoutMs: number;
}

/**
 * The Prometheus endpoint of a process, apart from its API port and never behind API keys; absent
 * port: no endpoint. Metrics carry no PHI and no account, but still bind where the operator says.
 */
export interface MetricsSettings {
  host: string;
  port?: number;
}

/**
 * Prescribers and the NPI registry (docs/providers.md): where the registry is asked and how long its
 * answers are kept, and the clock of a provider authorization. The clock is settings so tests need
 * not wait days; the defaults are the contract's (section 13).
 */
export interface ProviderSettings {
  /** The NPPES NPI Registry API (version 2.1) live mode asks, without a trailing slash. */
  registryUrl: string;
  /**
   * What test mode asks instead of the in-process sandbox registry: a loopback registry in tests.
   * Absent: the sandbox registry's fixture answers in-process.
   */
  sandboxRegistryUrl?: string;
  registryTimeoutMs: number;
  /** How long a registry answer is reused (a day). */
  registryCacheMs: number;
  /** An unsigned signing link lapses after this (14 days). */
  signingLinkTtlMs: number;
  /** An unsigned authorization is reminded this long after it was sent (7 days). */
  signingReminderAfterMs: number;
  /** A signed authorization is reminded this long before it lapses (30 days). */
  renewalReminderBeforeMs: number;
  /**
   * How long the network an authorization was asked from is compared with signatures and kept, and a
   * finished authorization's signing address and user agent kept (90 days; docs/providers.md, "Retention").
   */
  requestOriginRetentionDays: number;
}

export interface AppConfig {
  mode: ProcessMode;
  production: boolean;
  http: {
    host: string;
    port: number;
    maxBodyBytes: number;
    /** Proxies in front of the API whose X-Forwarded-For names the client (Express `trust proxy`). */
    trustedProxyHops: number;
  };
  metrics: MetricsSettings;
  /**
   * The API's address as the outside world reaches it (PUBLIC_API_URL), without a trailing slash:
   * the JWKS URLs a payer fetches connector keys from are under it. Absent: no such URL can be named.
   */
  publicApiUrl?: string;
  dataDir: string;
  databaseUrl?: string;
  databaseTimeouts: DatabaseTimeouts;
  temporal: TemporalSettings;
  localTemporal: { port: number; uiPort: number };
  /** Absent in local mode until the launcher generates or loads the data folder's key. */
  encryption?: EncryptionSettings;
  devApiKey?: string;
  /** Per API key across all API processes; `keyless` per client address, for requests without a usable key. */
  rateLimit: { perSecond: number; burst: number; keyless: { perSecond: number; burst: number } };
  /** How long a key lookup is reused; a revocation made by another process takes effect within it. */
  apiKeyCacheTtlMs: number;
  codec: { corsOrigins: string[]; trustLoopback: boolean };
  webhooks: WebhookSettings;
  cases: CaseSettings;
  clinicalEvaluation: ClinicalEvaluationSettings;
  providers: ProviderSettings;
  /** How much OCR one case may ask of a worker (docs/documents.md, "Limits"). */
  documentReading: { ocrPagesPerCase: number; recycleThreadAfterPages: number };
  /** Audit events older than this are purged (docs/audit.md); six years by default, HIPAA's retention. */
  audit: { retentionDays: number };
  logLevel: string;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
  }
}

type Env = Record<string, string | undefined>;

const DEFAULT_HOST = '0.0.0.0';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/**
 * Well under the 30-second start-to-close timeout of the activities that use the clinical evaluation
 * pool (clinical eligibility, PA prefill), so a record too slow to read fails its case by name rather
 * than by Temporal timing the attempt out and retrying it.
 */
export const MAX_CLINICAL_EVALUATION_TIMEOUT_MS = 20_000;

/** The longest a revoked key may keep working in an API process other than the one that revoked it. */
export const MAX_API_KEY_CACHE_TTL_MS = 30_000;

/**
 * Parses the environment into one typed configuration, reporting every bad key at once so an
 * operator fixes a deployment in one pass instead of one restart per mistake.
 */
export function loadConfig(mode: ProcessMode, env: Env = process.env): AppConfig {
  const problems: string[] = [];

  const integer = (key: string, fallback: number, min: number, max: number): number => {
    const raw = env[key];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      problems.push(`${key} must be an integer from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  };
  const flag = (key: string, fallback: boolean): boolean => {
    const raw = env[key];
    if (raw === undefined || raw === '') return fallback;
    if (['true', '1', 'yes'].includes(raw.toLowerCase())) return true;
    if (['false', '0', 'no'].includes(raw.toLowerCase())) return false;
    problems.push(`${key} must be true or false (got "${raw}")`);
    return fallback;
  };
  const text = (key: string): string | undefined => {
    const raw = env[key]?.trim();
    return raw ? raw : undefined;
  };

  const nodeEnv = text('NODE_ENV') ?? (mode === 'local' ? 'development' : 'production');
  const production = nodeEnv === 'production';

  const databaseUrl = text('DATABASE_URL');
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problems.push('DATABASE_URL must be a postgres:// or postgresql:// URL');
  }
  if (!databaseUrl && production && (mode === 'api' || mode === 'worker')) {
    problems.push('DATABASE_URL is required in production: the embedded database is for local mode only');
  }

  const statementTimeoutMs = integer(
    'DATABASE_STATEMENT_TIMEOUT_MS',
    DEFAULT_DATABASE_TIMEOUTS.statementMs,
    100,
    3_600_000,
  );
  const databaseTimeouts: DatabaseTimeouts = {
    connectMs: integer('DATABASE_CONNECT_TIMEOUT_MS', DEFAULT_DATABASE_TIMEOUTS.connectMs, 100, 120_000),
    statementMs: statementTimeoutMs,
    queryMs: integer(
      'DATABASE_QUERY_TIMEOUT_MS',
      statementTimeoutMs + QUERY_TIMEOUT_MARGIN_MS,
      100,
      3_600_000,
    ),
  };
  if (databaseTimeouts.queryMs <= databaseTimeouts.statementMs) {
    problems.push(
      'DATABASE_QUERY_TIMEOUT_MS must be longer than DATABASE_STATEMENT_TIMEOUT_MS: the server cancels a ' +
        'slow statement first, and the client gives up only on a server that stopped answering',
    );
  }

  const temporalAddress = text('TEMPORAL_ADDRESS');
  if (!temporalAddress && production && (mode === 'api' || mode === 'worker')) {
    problems.push('TEMPORAL_ADDRESS is required in production (host:port of the Temporal frontend)');
  }
  const localTemporal = {
    port: integer('TEMPORAL_DEV_PORT', 7233, 1, 65535),
    uiPort: integer('TEMPORAL_UI_PORT', 8233, 1, 65535),
  };
  const temporalWebUrl =
    text('TEMPORAL_WEB_URL') ?? (mode === 'local' ? `http://localhost:${localTemporal.uiPort}` : undefined);
  if (temporalWebUrl && !/^https?:\/\/[^\s]+$/.test(temporalWebUrl)) {
    problems.push(
      'TEMPORAL_WEB_URL must be an http:// or https:// URL (Temporal Web, e.g. https://temporal.example.com)',
    );
  }

  const useTls = flag('TEMPORAL_TLS', false);
  const tlsPaths = {
    serverName: text('TEMPORAL_TLS_SERVER_NAME'),
    caCertPath: text('TEMPORAL_TLS_CA_PATH'),
    clientCertPath: text('TEMPORAL_TLS_CERT_PATH'),
    clientKeyPath: text('TEMPORAL_TLS_KEY_PATH'),
  };
  if (Boolean(tlsPaths.clientCertPath) !== Boolean(tlsPaths.clientKeyPath)) {
    problems.push('TEMPORAL_TLS_CERT_PATH and TEMPORAL_TLS_KEY_PATH must be set together (mTLS)');
  }
  const temporalApiKey = text('TEMPORAL_API_KEY');

  const encryption = parseEncryptionKeys(env, problems);
  if (!encryption && (mode === 'api' || mode === 'worker')) {
    problems.push(
      'PAYLOAD_ENCRYPTION_KEYS is required outside local mode: "keyId:base64Key[,keyId:base64Key]" ' +
        'with 32-byte keys (generate one with `openssl rand -base64 32`)',
    );
  }

  const devApiKey = text('DEV_API_KEY');
  if (devApiKey && devApiKey.length < 32) problems.push('DEV_API_KEY must be at least 32 characters long');
  // The admin CLI never reads the key, so an operator's shell that still exports it need not be cleaned first.
  if (devApiKey && production && mode !== 'admin') {
    problems.push(
      'DEV_API_KEY is refused in production: it pins an admin key whose value sits in configuration. ' +
        'Unset it and create keys with the admin CLI (npm run admin -- keys:create --account ID --role admin)',
    );
  }

  // Local data (local mode, or the admin CLI on it) talks to receivers on this machine.
  const localData = mode === 'local' || (mode === 'admin' && !databaseUrl);
  const allowedTargets = (text('WEBHOOK_ALLOWED_TARGETS') ?? (localData ? '127.0.0.0/8,::1/128' : ''))
    .split(',')
    .map((range) => range.trim())
    .filter(Boolean);
  for (const range of allowedTargets) {
    if (!/^[0-9a-fA-F:.]+\/\d{1,3}$/.test(range)) {
      problems.push(
        `WEBHOOK_ALLOWED_TARGETS entries must be CIDR ranges such as 127.0.0.0/8 (got "${range}")`,
      );
    }
  }
  const webhooks: WebhookSettings = {
    allowedTargets,
    timeoutMs: integer('WEBHOOK_TIMEOUT_MS', 10_000, 100, 60_000),
    handOffMs: integer('WEBHOOK_HANDOFF_MS', 5_000, 2_000, 60_000),
    commitWaitMs: integer('WEBHOOK_COMMIT_WAIT_MS', 1_000, 0, 60_000),
    retry: {
      initialIntervalMs: integer('WEBHOOK_RETRY_INITIAL_INTERVAL_MS', 5_000, 10, 3_600_000),
      backoffCoefficient: integer('WEBHOOK_RETRY_BACKOFF_COEFFICIENT', 6, 1, 100),
      maximumIntervalMs: integer('WEBHOOK_RETRY_MAX_INTERVAL_MS', 10 * 3_600_000, 10, 7 * 24 * 3_600_000),
      expireAfterMs: integer('WEBHOOK_RETRY_EXPIRE_AFTER_MS', 3 * 24 * 3_600_000, 1_000, 30 * 24 * 3_600_000),
    },
    issuer: text('WEBHOOK_ISSUER') ?? 'healthcare-access-api',
  };

  const patientRefKeyText = text('PATIENT_REF_KEY');
  const patientRefKey = patientRefKeyText ? Buffer.from(patientRefKeyText, 'base64') : undefined;
  if (patientRefKey && patientRefKey.length < 32)
    problems.push('PATIENT_REF_KEY must decode to at least 32 bytes');
  if (!patientRefKey && mode === 'api') {
    problems.push(
      'PATIENT_REF_KEY is required outside local mode: 32 random bytes, base64 (`openssl rand -base64 32`)',
    );
  }
  const cases: CaseSettings = {
    reviewReminderMs: integer('CASE_REVIEW_REMINDER_MS', 24 * 3_600_000, 1_000, 30 * 24 * 3_600_000),
    reviewExpiryMs: integer('CASE_REVIEW_EXPIRY_MS', 7 * 24 * 3_600_000, 1_000, 90 * 24 * 3_600_000),
    payerPollIntervalMs: integer('PAYER_POLL_INTERVAL_MS', 30_000, 100, 24 * 3_600_000),
    connectorRetry: {
      initialIntervalMs: integer('CONNECTOR_RETRY_INITIAL_INTERVAL_MS', 2_000, 10, 3_600_000),
      maximumIntervalMs: integer('CONNECTOR_RETRY_MAX_INTERVAL_MS', 60_000, 10, 24 * 3_600_000),
      maximumAttempts: integer('CONNECTOR_RETRY_MAX_ATTEMPTS', 10, 1, 100),
    },
    dueWithinMs: {
      standard: integer('PA_STANDARD_DUE_MS', 15 * 24 * 3_600_000, 1_000, 30 * 24 * 3_600_000),
      expedited: integer('PA_EXPEDITED_DUE_MS', 72 * 3_600_000, 1_000, 30 * 24 * 3_600_000),
    },
    reviewDueWithinMs: {
      standard: integer('PA_REVIEW_DUE_MS', 24 * 3_600_000, 1_000, 30 * 24 * 3_600_000),
      expedited: integer('PA_EXPEDITED_REVIEW_DUE_MS', 4 * 3_600_000, 1_000, 30 * 24 * 3_600_000),
    },
    outage: {
      firstRetryMs: integer('CASE_OUTAGE_FIRST_RETRY_MS', 5 * 60_000, 100, 24 * 3_600_000),
      longestRetryMs: integer('CASE_OUTAGE_LONGEST_RETRY_MS', 3_600_000, 100, 24 * 3_600_000),
      deadlineMs: {
        benefit_verification: integer('BV_OUTAGE_DEADLINE_MS', 24 * 3_600_000, 1_000, 30 * 24 * 3_600_000),
        prior_authorization: integer('PA_OUTAGE_DEADLINE_MS', 24 * 3_600_000, 1_000, 30 * 24 * 3_600_000),
        clinical_eligibility: null,
        patient_enrollment: integer(
          'ENROLLMENT_OUTAGE_DEADLINE_MS',
          72 * 3_600_000,
          1_000,
          30 * 24 * 3_600_000,
        ),
      },
    },
    patientRefKey,
    retentionDays: integer('CASE_RETENTION_DAYS', 30, 1, 100 * 365),
  };
  if (cases.connectorRetry.maximumIntervalMs < cases.connectorRetry.initialIntervalMs) {
    problems.push(
      'CONNECTOR_RETRY_MAX_INTERVAL_MS must be at least CONNECTOR_RETRY_INITIAL_INTERVAL_MS: ' +
        'Temporal refuses a retry policy whose longest wait is shorter than its first',
    );
  }

  const providers: ProviderSettings = {
    registryUrl: (text('NPI_REGISTRY_URL') ?? 'https://npiregistry.cms.hhs.gov/api').replace(/\/+$/, ''),
    sandboxRegistryUrl: text('SANDBOX_NPI_REGISTRY_URL')?.replace(/\/+$/, ''),
    registryTimeoutMs: integer('NPI_REGISTRY_TIMEOUT_MS', 3_000, 100, 30_000),
    registryCacheMs: integer('NPI_REGISTRY_CACHE_MS', DAY_MS, 0, 7 * DAY_MS),
    signingLinkTtlMs: integer('PROVIDER_SIGNING_LINK_TTL_MS', 14 * DAY_MS, 1_000, 90 * DAY_MS),
    signingReminderAfterMs: integer('PROVIDER_SIGNING_REMINDER_AFTER_MS', 7 * DAY_MS, 500, 90 * DAY_MS),
    renewalReminderBeforeMs: integer('PROVIDER_RENEWAL_REMINDER_BEFORE_MS', 30 * DAY_MS, 0, 365 * DAY_MS),
    requestOriginRetentionDays: integer('PROVIDER_REQUEST_ORIGIN_RETENTION_DAYS', 90, 1, 365),
  };
  // Only the local stack and the tests ask a registry on loopback; a live registry asked in clear
  // could be answered by anyone on the path.
  if (!isRegistryUrl(providers.registryUrl, mode !== 'local' && production)) {
    problems.push(
      `NPI_REGISTRY_URL must be an ${mode !== 'local' && production ? 'https://' : 'http:// or https://'} URL ` +
        'without credentials, a query or fragment (the NPPES API, https://npiregistry.cms.hhs.gov/api)',
    );
  }
  if (providers.sandboxRegistryUrl !== undefined && !isRegistryUrl(providers.sandboxRegistryUrl, false)) {
    problems.push(
      'SANDBOX_NPI_REGISTRY_URL must be an http:// or https:// URL without credentials, a query or fragment',
    );
  }
  if (providers.signingReminderAfterMs >= providers.signingLinkTtlMs) {
    problems.push('PROVIDER_SIGNING_REMINDER_AFTER_MS must be shorter than PROVIDER_SIGNING_LINK_TTL_MS');
  }

  const clinicalEvaluation: ClinicalEvaluationSettings = {
    threads: integer('CLINICAL_EVALUATION_THREADS', 2, 1, 64),
    taskTimeoutMs: integer('CLINICAL_EVALUATION_TIMEOUT_MS', 10_000, 1, Number.MAX_SAFE_INTEGER),
  };
  if (clinicalEvaluation.taskTimeoutMs > MAX_CLINICAL_EVALUATION_TIMEOUT_MS) {
    problems.push(
      `CLINICAL_EVALUATION_TIMEOUT_MS must be at most ${MAX_CLINICAL_EVALUATION_TIMEOUT_MS} ` +
        `(got "${env.CLINICAL_EVALUATION_TIMEOUT_MS}"): the clinical activities time out after 30 seconds, ` +
        'so a longer limit could never fail a case and Temporal would retry the attempt instead',
    );
  }

  const documentReading = {
    ocrPagesPerCase: integer('DOCUMENT_OCR_PAGES_PER_CASE', 40, 1, 1000),
    recycleThreadAfterPages: integer(
      'DOCUMENT_READING_RECYCLE_AFTER_PAGES',
      RECYCLE_THREAD_AFTER_PAGES,
      1,
      1_000_000,
    ),
  };

  const trustLoopback = flag('CODEC_TRUST_LOOPBACK', mode === 'local');
  if (trustLoopback && mode !== 'local') {
    problems.push(
      'CODEC_TRUST_LOOPBACK is for local mode only: elsewhere Temporal Web reaches the codec with an ' +
        'operator key (docs/runbook.md, "Codec access")',
    );
  }

  const httpHost = text('HOST') ?? DEFAULT_HOST;
  const httpPort = integer('PORT', 3000, 0, 65535);
  const metricsPort = text('METRICS_PORT') === undefined ? undefined : integer('METRICS_PORT', 0, 1, 65535);
  // A worker serves no API, so only processes that do must keep the two apart.
  if (mode !== 'worker' && metricsPort !== undefined && metricsPort === httpPort) {
    problems.push(
      `METRICS_PORT must differ from PORT (both ${httpPort}): metrics are served apart from the API`,
    );
  }
  const metricsHost = text('METRICS_HOST') ?? DEFAULT_HOST;
  // The worker's exporter (the Temporal SDK core) takes an address, not a name.
  if (!isIP(metricsHost)) {
    problems.push(`METRICS_HOST must be an IP address such as 127.0.0.1 or 0.0.0.0, not "${metricsHost}"`);
  }

  // Local data's service answers on this machine's PORT; elsewhere only the operator knows the address.
  const publicApiUrl = (
    text('PUBLIC_API_URL') ?? (localData ? `http://localhost:${httpPort}` : undefined)
  )?.replace(/\/+$/, '');
  if (publicApiUrl && !isPublicApiUrl(publicApiUrl)) {
    problems.push(
      'PUBLIC_API_URL must be an http:// or https:// URL without a query or fragment ' +
        '(where the API is reached from outside, e.g. https://api.example.com)',
    );
  }

  const logLevel = text('LOG_LEVEL') ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);

  const config: AppConfig = {
    mode,
    production,
    http: {
      host: httpHost,
      port: httpPort,
      maxBodyBytes: integer('MAX_BODY_BYTES', 25 * 1024 * 1024, 1024, 100 * 1024 * 1024),
      trustedProxyHops: integer('TRUSTED_PROXY_HOPS', 0, 0, 10),
    },
    metrics: {
      host: metricsHost,
      ...(metricsPort !== undefined && { port: metricsPort }),
    },
    ...(publicApiUrl && { publicApiUrl }),
    dataDir: path.resolve(text('DATA_DIR') ?? 'data'),
    databaseUrl,
    databaseTimeouts,
    temporal: {
      address: temporalAddress ?? `127.0.0.1:${localTemporal.port}`,
      namespace: text('TEMPORAL_NAMESPACE') ?? 'default',
      taskQueue: text('TEMPORAL_TASK_QUEUE') ?? 'healthcare-access',
      maxCachedWorkflows: integer('WORKER_MAX_CACHED_WORKFLOWS', 500, 10, 100_000),
      stickyQueueTimeoutMs: integer('WORKER_STICKY_QUEUE_TIMEOUT_MS', 10_000, 1_000, 600_000),
      tls: useTls || tlsPaths.clientCertPath || temporalApiKey ? tlsPaths : undefined,
      apiKey: temporalApiKey,
      ...(temporalWebUrl && { webUrl: temporalWebUrl.replace(/\/+$/, '') }),
    },
    localTemporal,
    encryption,
    devApiKey,
    rateLimit: {
      perSecond: integer('RATE_LIMIT_PER_SECOND', 50, 1, 100_000),
      burst: integer('RATE_LIMIT_BURST', 100, 1, 100_000),
      keyless: {
        perSecond: integer('KEYLESS_RATE_LIMIT_PER_SECOND', 5, 1, 100_000),
        burst: integer('KEYLESS_RATE_LIMIT_BURST', 20, 1, 100_000),
      },
    },
    apiKeyCacheTtlMs: integer('API_KEY_CACHE_TTL_MS', 5_000, 0, MAX_API_KEY_CACHE_TTL_MS),
    codec: {
      corsOrigins: (
        text('CODEC_CORS_ORIGINS') ?? (mode === 'local' ? `http://localhost:${localTemporal.uiPort}` : '')
      )
        .split(',')
        .map((origin) => origin.trim())
        .filter(Boolean),
      trustLoopback,
    },
    webhooks,
    cases,
    clinicalEvaluation,
    providers,
    documentReading,
    audit: { retentionDays: integer('AUDIT_RETENTION_DAYS', 6 * 365, 1, 100 * 365) },
    logLevel,
  };

  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

function isPublicApiUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return ['http:', 'https:'].includes(url.protocol) && !url.search && !url.hash && !url.username;
}

/** An NPI registry's address, to which each question appends `/?version=2.1&…`. */
function isRegistryUrl(value: string, httpsOnly: boolean): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  const protocols = httpsOnly ? ['https:'] : ['http:', 'https:'];
  return protocols.includes(url.protocol) && !url.search && !url.hash && !url.username && !url.password;
}

function parseEncryptionKeys(env: Env, problems: string[]): EncryptionSettings | undefined {
  const raw = env.PAYLOAD_ENCRYPTION_KEYS?.trim();
  if (!raw) return undefined;
  const keys = new Map<string, Buffer>();
  for (const entry of raw.split(',')) {
    const separator = entry.indexOf(':');
    const keyId = entry.slice(0, separator).trim();
    const key = Buffer.from(entry.slice(separator + 1).trim(), 'base64');
    if (separator <= 0 || !/^[A-Za-z0-9_.-]{1,64}$/.test(keyId)) {
      problems.push('PAYLOAD_ENCRYPTION_KEYS entries must look like "keyId:base64Key"');
      continue;
    }
    if (key.length !== 32) {
      problems.push(`PAYLOAD_ENCRYPTION_KEYS key "${keyId}" must decode to 32 bytes (AES-256)`);
      continue;
    }
    keys.set(keyId, key);
  }
  const currentKeyId = env.PAYLOAD_ENCRYPTION_KEY_ID?.trim() || [...keys.keys()][0];
  if (keys.size > 0 && (!currentKeyId || !keys.has(currentKeyId))) {
    problems.push('PAYLOAD_ENCRYPTION_KEY_ID must name one of the PAYLOAD_ENCRYPTION_KEYS');
  }
  return keys.size > 0 && currentKeyId ? { keys, currentKeyId } : undefined;
}
