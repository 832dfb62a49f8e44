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

/** A PAS payer endpoint or a program hub: an address, credentials and a time limit. */
export interface EndpointConnectorSettings extends EndpointSettings {
  kind: Exclude<ConnectorKind, 'eligibility'>;
}

/** An account's settings for one connector, secrets included: for the worker's use only. */
export type ConnectorSettings = EligibilityConnectorSettings | EndpointConnectorSettings;
