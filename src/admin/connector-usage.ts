/**
 * The connector commands' help and flags, apart from the commands so the CLI parses and lists them
 * without loading the connectors' service.
 */
export const CONNECTOR_USAGE = `  connectors:list --account ID                     list an account's connectors (secrets as hints)
  connectors:set --account ID --kind KIND --url URL --auth none|basic|bearer|header
                 [--username NAME] [--header-name NAME] [--timeout-ms N]
                 [--format x12|json] [--submitter-id ID] [--receiver-id ID] [--usage production|test]
                                                   create or replace a connector (KIND: eligibility,
                                                   prior_authorization, program_enrollment,
                                                   questionnaire: a DTR service's FHIR base); the
                                                   password, token or header value comes from
                                                   CONNECTOR_SECRET or stdin, never a flag; without
                                                   one, the stored secret of the same auth type stays
  connectors:set --account ID --kind coverage_requirements --url URL --client-id ID [--timeout-ms N]
                                                   a Da Vinci CRD service: no --auth, its calls carry
                                                   JWTs signed with a key the service generates
  connectors:set --account ID --kind mail --host HOST --port N --security tls|starttls --from ADDRESS
                 [--username NAME] [--ca-file PEM_FILE] [--timeout-ms N]
                                                   the SMTP server live-mode mail goes through; the
                                                   password comes from CONNECTOR_SECRET or stdin, and
                                                   without one the stored password of the same user
                                                   and server stays
  connectors:rotate-signing-key --account ID       a new signing key for the coverage_requirements
                                                   connector; the previous one stays published
  connectors:delete --account ID --kind KIND       remove a connector and its secret or keys`;

const STRING = { type: 'string' } as const;

/** The flags of the connectors:* commands, for the CLI's argument parser. */
export const CONNECTOR_OPTIONS = {
  kind: STRING,
  auth: STRING,
  username: STRING,
  'header-name': STRING,
  format: STRING,
  'submitter-id': STRING,
  'receiver-id': STRING,
  usage: STRING,
  'client-id': STRING,
  host: STRING,
  port: STRING,
  security: STRING,
  from: STRING,
  'ca-file': STRING,
  'timeout-ms': STRING,
};

export type ConnectorFlags = { [Flag in keyof typeof CONNECTOR_OPTIONS]?: string } & {
  account?: string;
  url?: string;
};
