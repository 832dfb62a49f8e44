import type { ConnectorKind } from './connector-kinds';

/** How a connector proves itself to the other side; the secrets are held sealed at rest. */
export type ConnectorAuth =
  | { type: 'none' }
  | { type: 'basic'; username: string; password: string }
  | { type: 'bearer'; token: string }
  | { type: 'header'; name: string; value: string };

export type ConnectorAuthType = ConnectorAuth['type'];
export const CONNECTOR_AUTH_TYPES = [
  'none',
  'basic',
  'bearer',
  'header',
] as const satisfies readonly ConnectorAuthType[];

/** `x12`: the interchange is the body (application/EDI-X12); `json`: it travels as `{"x12": "…"}`. */
export const ELIGIBILITY_FORMATS = ['x12', 'json'] as const;
export type EligibilityFormat = (typeof ELIGIBILITY_FORMATS)[number];

/** ISA15: `production` interchanges are acted on, `test` ones only checked by the receiver. */
export const INTERCHANGE_USAGES = ['production', 'test'] as const;
export type InterchangeUsage = (typeof INTERCHANGE_USAGES)[number];

/**
 * A live call must fit the contract's hard cap for real-time benefit verification (30 s), and a
 * clearinghouse that cannot answer within a second is not one to wait less for.
 */
export const CONNECTOR_TIMEOUT_MS = { min: 1_000, max: 30_000, default: 10_000 } as const;

/**
 * ISA06 and ISA08 (interchange sender and receiver ids): at most 15 characters of the X12 basic
 * character set's uppercase letters, digits and spaces. The envelope pads them to 15 with spaces, so
 * an id neither starts nor ends with one.
 */
export const X12_INTERCHANGE_ID_PATTERN = /^[A-Z0-9](?:[A-Z0-9 ]{0,13}[A-Z0-9])?$/;

/** ISA13 runs 1 to 999999999 and starts again at 1. */
export const MAX_INTERCHANGE_CONTROL_NUMBER = 999_999_999;

interface EndpointSettings {
  url: string;
  auth: ConnectorAuth;
  timeoutMs: number;
}

/** The clearinghouse that answers 270 inquiries with 271s. */
export interface EligibilityConnectorSettings extends EndpointSettings {
  kind: 'eligibility';
  format: EligibilityFormat;
  submitterId: string;
  receiverId: string;
  usage: InterchangeUsage;
}

/**
 * A PAS payer endpoint, a program hub or a DTR service (its FHIR base): an address, credentials and a
 * time limit.
 */
export interface EndpointConnectorSettings extends EndpointSettings {
  kind: Exclude<ConnectorKind, 'eligibility' | 'coverage_requirements' | 'mail'>;
}

/**
 * `tls`: TLS from the first byte (SMTPS, usually port 465); `starttls`: the session is upgraded before
 * anything is sent (usually port 587), and a server that does not offer it is refused. There is no
 * plain choice: the mail carries signing links, which must never travel in clear.
 */
export const MAIL_SECURITIES = ['tls', 'starttls'] as const;
export type MailSecurity = (typeof MAIL_SECURITIES)[number];

/** A DNS name (RFC 1123 labels); IP literals are checked apart. */
export const MAIL_HOST_PATTERN =
  /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

/**
 * The SMTP server live-mode mail goes through (docs/providers.md). Credentials are optional: a relay
 * may admit the service by its address. `trustedCa` replaces the public certificate authorities for
 * this server only (a private relay's CA, or a test's self-signed certificate); certificates are
 * always checked.
 */
export interface MailConnectorSettings {
  kind: 'mail';
  host: string;
  port: number;
  security: MailSecurity;
  auth: { type: 'none' } | { type: 'basic'; username: string; password: string };
  /** The sender address every message carries. */
  from: string;
  timeoutMs: number;
  trustedCa?: string;
}

/** Where the settings keep a mail server: the scheme says how the session is secured. */
export function mailServerUrl(host: string, port: number, security: MailSecurity): string {
  const literal = host.includes(':') ? `[${host}]` : host;
  return `${security === 'tls' ? 'smtps' : 'smtp'}://${literal}:${port}`;
}

/** The host, port and security a `mailServerUrl` names. */
export function mailServerOf(url: string): { host: string; port: number; security: MailSecurity } {
  const parsed = new URL(url);
  return {
    host: parsed.hostname.replace(/^\[|\]$/g, ''),
    port: Number(parsed.port),
    security: parsed.protocol === 'smtps:' ? 'tls' : 'starttls',
  };
}

/**
 * A CRD call is on the interactive path of a prior authorization, and the case falls back to the path
 * without it when the service is slow: waiting long gains nothing, and half a second is already fast.
 */
export const COVERAGE_REQUIREMENTS_TIMEOUT_MS = { min: 500, max: 10_000, default: 3_000 } as const;

/**
 * A DTR `$questionnaire-package` call is on the same interactive path, right after CRD's, and a slow
 * service leaves the questionnaire to people: the same bounds.
 */
export const QUESTIONNAIRE_TIMEOUT_MS = { min: 500, max: 10_000, default: 3_000 } as const;

/** The time limits a connector of this kind may be given, in milliseconds. */
export function connectorTimeoutRange(kind: ConnectorKind): {
  readonly min: number;
  readonly max: number;
  readonly default: number;
} {
  if (kind === 'coverage_requirements') return COVERAGE_REQUIREMENTS_TIMEOUT_MS;
  return kind === 'questionnaire' ? QUESTIONNAIRE_TIMEOUT_MS : CONNECTOR_TIMEOUT_MS;
}

/**
 * The `iss` and `sub` of the JWTs the connector signs, as the payer registered the account: at most
 * 255 visible ASCII characters (often a URL), never spaces.
 */
export const CDS_HOOKS_CLIENT_ID_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** A private JSON Web Key: the signing key's parameters, `d` included. */
export interface PrivateJwk {
  readonly kty: string;
  readonly [parameter: string]: string;
}

/** The key a coverage requirements connector signs its JWTs with, and the id the JWKS names it by. */
export interface ConnectorSigningKey {
  kid: string;
  privateJwk: PrivateJwk;
}

/**
 * A Da Vinci CRD (CDS Hooks) service: its `order-sign` URL, the client id the payer registered, and
 * the current signing key; it authenticates with a JWT signed with that key (CDS Hooks 2.0,
 * "Trusting CDS Clients"), whose public half the payer fetches from `jwksUrl`.
 */
export interface CoverageRequirementsConnectorSettings {
  kind: 'coverage_requirements';
  url: string;
  clientId: string;
  timeoutMs: number;
  signingKey: ConnectorSigningKey;
  jwksUrl: string;
}

/** An account's settings for one connector, secrets included: for the worker's use only. */
export type ConnectorSettings =
  | EligibilityConnectorSettings
  | EndpointConnectorSettings
  | CoverageRequirementsConnectorSettings
  | MailConnectorSettings;
