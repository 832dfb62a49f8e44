import { X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';

import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsEmail,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
  type ValidationArguments,
} from 'class-validator';

import { Stack, TextField } from '../common/dto/compose';
import { documentedRule } from '../common/dto/documented-rule';

import { ConnectorKind } from '../../domain/connectors/connector-kinds';
import {
  CDS_HOOKS_CLIENT_ID_PATTERN,
  CONNECTOR_AUTH_TYPES,
  CONNECTOR_TIMEOUT_MS,
  COVERAGE_REQUIREMENTS_TIMEOUT_MS,
  ConnectorAuthType,
  ELIGIBILITY_FORMATS,
  EligibilityFormat,
  INTERCHANGE_USAGES,
  InterchangeUsage,
  MAIL_HOST_PATTERN,
  MAIL_SECURITIES,
  MailSecurity,
  QUESTIONNAIRE_TIMEOUT_MS,
  X12_INTERCHANGE_ID_PATTERN,
} from '../../domain/connectors/connector-settings';
import { createValidationPipe } from '../common/validation';
import { HasNoControlCharacters, IsWebhookUrl } from '../common/validators';

/** RFC 9110 field-name characters. */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/**
 * Headers the connector itself sets or that frame the message: an account's credential header may
 * not replace them.
 */
const RESERVED_HEADERS = new Set([
  'accept',
  'connection',
  'content-length',
  'content-type',
  'host',
  'keep-alive',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

interface AuthFieldRule {
  required: boolean;
  maxLength: number;
  pattern: RegExp;
  patternIssue: string;
  refuse?: (value: string) => string | undefined;
}

/**
 * A field of one authentication type: refused beside another type, required or optional with its
 * own, then checked. One rule per field, so each mistake gets one sentence.
 */
function AuthField(type: ConnectorAuthType, rule: AuthFieldRule): PropertyDecorator {
  const issueOf = (value: unknown, authType: unknown): string | undefined => {
    if (authType !== type) return value === undefined ? undefined : `is only for auth type "${type}"`;
    if (value === undefined) return rule.required ? `is required with auth type "${type}"` : undefined;
    if (typeof value !== 'string' || value.length === 0 || value.length > rule.maxLength) {
      return `must be a string of 1 to ${rule.maxLength} characters`;
    }
    if (!rule.pattern.test(value)) return rule.patternIssue;
    return rule.refuse?.(value);
  };
  const typeOf = (args: ValidationArguments) => (args.object as { type?: unknown }).type;
  return documentedRule(
    'connectorAuthField',
    (value, args) => issueOf(value, typeOf(args)) === undefined,
    (args) => issueOf(args.value, typeOf(args))!,
    undefined,
    {
      schema: { type: 'string', minLength: 1, maxLength: rule.maxLength, pattern: rule.pattern.source },
      description: `Only with auth type "${type}"${rule.required ? ', which requires it' : ''}.`,
    },
  );
}

// Spelled as ranges rather than \p{Cc}, which JSON Schema readers without Unicode regexes reject.
const NO_CONTROL_CHARACTERS = {
  // eslint-disable-next-line no-control-regex -- naming the control characters is the point of this rule
  pattern: /^[^\x00-\x1f\x7f]+$/,
  patternIssue: 'must not contain control characters',
};
const KEPT_WHEN_ABSENT =
  'Left out, the stored one is kept if the auth type stays the same. Never returned: `auth.hint` shows its last 4 characters.';

export class ConnectorAuthDto {
  @ApiProperty({ enum: CONNECTOR_AUTH_TYPES, example: 'basic' })
  @IsIn(CONNECTOR_AUTH_TYPES)
  type!: ConnectorAuthType;

  @ApiPropertyOptional({ description: 'Basic authentication: the user name.' })
  @AuthField('basic', {
    required: true,
    maxLength: 256,
    // RFC 7617: the user id ends at the first colon.
    // eslint-disable-next-line no-control-regex -- naming the control characters is the point of this rule
    pattern: /^[^\x00-\x1f\x7f:]+$/,
    patternIssue: 'must not contain a colon or control characters',
  })
  username?: string;

  @ApiPropertyOptional({ description: `Basic authentication: the password. ${KEPT_WHEN_ABSENT}` })
  @AuthField('basic', { required: false, maxLength: 1024, ...NO_CONTROL_CHARACTERS })
  password?: string;

  @ApiPropertyOptional({ description: `Bearer authentication: the token. ${KEPT_WHEN_ABSENT}` })
  @AuthField('bearer', {
    required: false,
    maxLength: 4096,
    pattern: /^[\x21-\x7e]+$/,
    patternIssue: 'must be visible ASCII characters without spaces',
  })
  token?: string;

  @ApiPropertyOptional({ description: 'Header authentication: the header name.', example: 'X-Api-Key' })
  @AuthField('header', {
    required: true,
    maxLength: 100,
    pattern: HEADER_NAME,
    patternIssue: 'must be an HTTP header name',
    refuse: (name) =>
      RESERVED_HEADERS.has(name.toLowerCase()) ? 'names a header the connector sets itself' : undefined,
  })
  name?: string;

  @ApiPropertyOptional({ description: `Header authentication: the header value. ${KEPT_WHEN_ABSENT}` })
  @AuthField('header', {
    required: false,
    maxLength: 4096,
    pattern: /^[\x20-\x7e]+$/,
    patternIssue: 'must be printable ASCII characters',
  })
  value?: string;
}

/** How long one call to the connector may take, in milliseconds, within its kind's range. */
function TimeoutMs(
  range: { min: number; max: number; default: number },
  description: string,
): PropertyDecorator {
  return Stack(
    ApiPropertyOptional({ minimum: range.min, maximum: range.max, default: range.default, description }),
    IsOptional(),
    IsInt(),
    Min(range.min),
    Max(range.max),
  );
}

const URL_RULE =
  'https, checked by the SSRF policy when saved and at every connection: private, loopback and ' +
  'link-local targets are refused. Plain http only for targets on the allow-list (local mode, tests).';

/** An address and its credentials: what every kind with `auth` takes, each with its own time limit. */
abstract class AuthenticatedEndpointDto {
  @ApiProperty({ example: 'https://clearinghouse.example/x12/270', description: URL_RULE })
  @IsWebhookUrl()
  @HasNoControlCharacters()
  url!: string;

  @ApiProperty({ type: ConnectorAuthDto })
  @IsObject()
  @ValidateNested()
  @Type(() => ConnectorAuthDto)
  auth!: ConnectorAuthDto;
}

/** The settings of a PAS payer endpoint or a program hub: `PUT /connectors/prior_authorization | program_enrollment`. */
export class ConnectorSettingsDto extends AuthenticatedEndpointDto {
  @TimeoutMs(CONNECTOR_TIMEOUT_MS, 'How long one call may take, in milliseconds.')
  timeout_ms?: number;
}

const X12_ID_ISSUE = 'must be 1 to 15 uppercase letters, digits or inner spaces (an X12 interchange id)';

/** The settings of the X12 270/271 clearinghouse: `PUT /connectors/eligibility`. */
export class EligibilityConnectorSettingsDto extends ConnectorSettingsDto {
  @ApiPropertyOptional({
    enum: ELIGIBILITY_FORMATS,
    default: 'x12',
    description: '`x12`: the raw interchange (application/EDI-X12); `json`: `{"x12": "…"}` both ways.',
  })
  @IsOptional()
  @IsIn(ELIGIBILITY_FORMATS)
  format?: EligibilityFormat;

  @ApiProperty({ example: 'CLINIC0001', description: 'ISA06, the interchange sender id.' })
  @Matches(X12_INTERCHANGE_ID_PATTERN, { message: X12_ID_ISSUE })
  submitter_id!: string;

  @ApiProperty({ example: 'CLEARINGHOUSE', description: 'ISA08, the interchange receiver id.' })
  @Matches(X12_INTERCHANGE_ID_PATTERN, { message: X12_ID_ISSUE })
  receiver_id!: string;

  @ApiPropertyOptional({
    enum: INTERCHANGE_USAGES,
    default: 'production',
    description: 'ISA15: `production` (P) or `test` (T) interchanges.',
  })
  @IsOptional()
  @IsIn(INTERCHANGE_USAGES)
  usage?: InterchangeUsage;
}

/**
 * The settings of a Da Vinci CRD service: `PUT /connectors/coverage_requirements`. It takes no
 * `auth`: each call carries a JWT signed with a key the service generates for the connector.
 */
export class CoverageRequirementsConnectorSettingsDto {
  @ApiProperty({
    example: 'https://payer.example/cds-services/order-sign-crd',
    description: `The CDS service's \`order-sign\` URL. ${URL_RULE}`,
  })
  @IsWebhookUrl()
  @HasNoControlCharacters()
  url!: string;

  @ApiProperty({
    example: 'https://clinic.example',
    description: "The JWTs' `iss` and `sub`: the client id the payer registered the account under.",
  })
  @Matches(CDS_HOOKS_CLIENT_ID_PATTERN, {
    message: 'must be 1 to 255 visible ASCII characters without spaces',
  })
  client_id!: string;

  @TimeoutMs(
    COVERAGE_REQUIREMENTS_TIMEOUT_MS,
    'How long the call may take, in milliseconds; past it the prior authorization goes on without the answer.',
  )
  timeout_ms?: number;
}

/**
 * The settings of a Da Vinci DTR service: `PUT /connectors/questionnaire`. Its `url` is the FHIR base
 * that `Questionnaire/$questionnaire-package` is under; its time limit is CRD's, the call being on the
 * same interactive path.
 */
export class QuestionnaireConnectorSettingsDto extends AuthenticatedEndpointDto {
  @TimeoutMs(
    QUESTIONNAIRE_TIMEOUT_MS,
    "How long the call may take, in milliseconds; past it the questionnaire's items wait for a person.",
  )
  timeout_ms?: number;
}

/** A rule checked by a function of the value and the whole body: one sentence per mistake. */
function Refuses(
  name: string,
  issueOf: (value: unknown, body: Record<string, unknown>) => string | undefined,
): PropertyDecorator {
  const bodyOf = (args: ValidationArguments) => args.object as Record<string, unknown>;
  return documentedRule(
    name,
    (value, args) => issueOf(value, bodyOf(args)) === undefined,
    (args) => issueOf(args.value, bodyOf(args))!,
  );
}

/** A DNS name or an IP literal; what it resolves to is the SSRF policy's to judge. */
const mailHostIssue = (host: unknown): string | undefined =>
  typeof host === 'string' && (isIP(host) !== 0 || MAIL_HOST_PATTERN.test(host))
    ? undefined
    : 'must be a host name or an IP address';

const caCertificateIssue = (pem: unknown): string | undefined => {
  if (pem === undefined) return undefined;
  if (typeof pem !== 'string' || !pem.includes('-----BEGIN CERTIFICATE-----')) {
    return 'must be a PEM certificate';
  }
  try {
    new X509Certificate(pem);
    return undefined;
  } catch {
    return 'must be a PEM certificate';
  }
};

/**
 * The settings of the SMTP server live-mode mail goes through: `PUT /connectors/mail`. The session is
 * always encrypted (`tls` or `starttls`): the mail carries signing links, which never travel in clear.
 */
export class MailConnectorSettingsDto {
  @ApiProperty({
    example: 'smtp.clinic.example',
    description:
      'The SMTP server, checked by the SSRF policy when saved and at every connection: private, ' +
      'loopback and link-local addresses are refused (loopback only on the allow-list: local mode, tests).',
  })
  @Refuses('mailHost', mailHostIssue)
  host!: string;

  @ApiProperty({ minimum: 1, maximum: 65535, example: 587 })
  @IsInt()
  @Min(1)
  @Max(65535)
  port!: number;

  @ApiProperty({
    enum: MAIL_SECURITIES,
    example: 'starttls',
    description:
      '`tls`: TLS from the first byte (SMTPS, usually port 465). `starttls`: the session is upgraded ' +
      'before anything is sent (usually port 587); a server that does not offer STARTTLS is refused. ' +
      "The server's certificate is always checked.",
  })
  @IsIn(MAIL_SECURITIES)
  security!: MailSecurity;

  @TextField(256, {
    optional: true,
    description:
      'The SMTP AUTH user name (PLAIN or LOGIN). Left out: the server admits the service unauthenticated.',
  })
  @HasNoControlCharacters()
  username?: string;

  @ApiPropertyOptional({
    description:
      'The SMTP AUTH password, only with `username`. Left out, the stored one is kept for the same ' +
      'user, host, port and security. Never returned: `auth.hint` shows its last 4 characters.',
  })
  @Refuses('mailPassword', (password, body) => {
    if (password === undefined) return undefined;
    if (body.username === undefined) return 'is only with a username';
    if (typeof password !== 'string' || password.length === 0 || password.length > 1024) {
      return 'must be a string of 1 to 1024 characters';
    }
    return NO_CONTROL_CHARACTERS.pattern.test(password) ? undefined : NO_CONTROL_CHARACTERS.patternIssue;
  })
  password?: string;

  @ApiProperty({ example: 'prior-auth@clinic.example', description: 'The sender address of every message.' })
  @IsEmail()
  @MaxLength(254)
  from!: string;

  @ApiPropertyOptional({
    description:
      "A PEM certificate the server's must chain to, instead of the public certificate authorities: a " +
      "private relay's CA, or its own self-signed certificate. Certificates are checked either way.",
  })
  @IsOptional()
  @MaxLength(16_384)
  @Refuses('caCertificate', caCertificateIssue)
  ca_certificate?: string;

  @TimeoutMs(
    CONNECTOR_TIMEOUT_MS,
    'How long sending one message may take, in milliseconds; past it the send is retried.',
  )
  timeout_ms?: number;
}

/** A `PUT /connectors/{kind}` body, once its kind's DTO has validated it. */
export type ConnectorSettingsBody =
  | ConnectorSettingsDto
  | CoverageRequirementsConnectorSettingsDto
  | QuestionnaireConnectorSettingsDto
  | MailConnectorSettingsDto;

/**
 * Each kind's body: the eligibility connector adds the X12 envelope's settings; CRD has its own; DTR
 * takes a shorter time limit; mail names an SMTP server rather than a URL.
 */
export function connectorSettingsDtoFor(kind: ConnectorKind): new () => ConnectorSettingsBody {
  switch (kind) {
    case 'eligibility':
      return EligibilityConnectorSettingsDto;
    case 'coverage_requirements':
      return CoverageRequirementsConnectorSettingsDto;
    case 'questionnaire':
      return QuestionnaireConnectorSettingsDto;
    case 'mail':
      return MailConnectorSettingsDto;
    default:
      return ConnectorSettingsDto;
  }
}

const VALIDATION = createValidationPipe();

/**
 * A body checked against its kind's DTO by the API's own validation step (which the route cannot
 * run for it, the DTO depending on the path); a refusal throws the API's 400.
 */
export async function validatedConnectorSettings(
  kind: ConnectorKind,
  body: unknown,
): Promise<ConnectorSettingsBody> {
  return (await VALIDATION.transform(body, {
    type: 'body',
    metatype: connectorSettingsDtoFor(kind),
  })) as ConnectorSettingsBody;
}
