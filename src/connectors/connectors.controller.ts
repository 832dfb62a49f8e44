import { Body, Delete, Get, HttpCode, Inject, Param, Put } from '@nestjs/common';
import {
  ApiBody,
  ApiConflictResponse,
  ApiExtraModels,
  ApiNotFoundResponse,
  ApiOperation,
  ApiParam,
  getSchemaPath,
} from '@nestjs/swagger';

import { CONNECTOR_KINDS } from '../../domain/connectors/connector-kinds';

import type { Principal } from '../../infrastructure/accounts/accounts.repository';
import { ApiController } from '../common/api-controller';
import { Audited } from '../common/audited.decorator';
import { CurrentPrincipal } from '../common/route-access';
import { requireLiveKeyFor } from '../common/live-data';
import { success, wholeList } from '../common/envelope';
import { Answers, AnswersList } from '../contract/answers';
import { IdempotentPost } from '../idempotency/idempotency.module';
import {
  ConnectorSettingsDto,
  CoverageRequirementsConnectorSettingsDto,
  EligibilityConnectorSettingsDto,
  MailConnectorSettingsDto,
  QuestionnaireConnectorSettingsDto,
  validatedConnectorSettings,
} from './connectors.dto';
import { connectorKindOf, ConnectorsService } from './connectors.service';

/** Documents `{kind}` as the kinds, so generated requests name real ones. */
const KindParameter = () => ApiParam({ name: 'kind', enum: CONNECTOR_KINDS });

/**
 * The connectors live-mode cases go to (docs/decisions.md#modes), per account. They decide where PHI is
 * sent and hold the account's credentials there, so only admins see or change them.
 */
@ApiExtraModels(
  EligibilityConnectorSettingsDto,
  ConnectorSettingsDto,
  CoverageRequirementsConnectorSettingsDto,
  QuestionnaireConnectorSettingsDto,
  MailConnectorSettingsDto,
)
@ApiController('connectors', { role: 'admin' })
export class ConnectorsController {
  constructor(@Inject(ConnectorsService) private readonly connectors: ConnectorsService) {}

  @Get()
  @ApiOperation({ summary: "List the account's configured connectors (secrets shown as hints only)" })
  @AnswersList('Connector')
  async list(@CurrentPrincipal() principal: Principal) {
    const connectors = await this.connectors.list(principal.accountId);
    return success(wholeList(connectors));
  }

  @Get(':kind')
  @KindParameter()
  @ApiOperation({
    summary:
      'Get the settings of one connector: eligibility, prior_authorization, program_enrollment, ' +
      'coverage_requirements, questionnaire or mail',
  })
  @Answers('Connector')
  async get(@CurrentPrincipal() principal: Principal, @Param('kind') kind: string) {
    return success(await this.connectors.get(principal.accountId, kind));
  }

  @Put(':kind')
  @KindParameter()
  @Audited('connector.configured', 'connector')
  @ApiOperation({
    summary: 'Create or replace the settings of one connector',
    description:
      '`eligibility` takes EligibilityConnectorSettings (the X12 envelope settings besides the ' +
      'endpoint); `prior_authorization` and `program_enrollment` take ConnectorSettings; ' +
      '`coverage_requirements` takes CoverageRequirementsConnectorSettings, and the service generates ' +
      'its signing key and JWKS URL when it is created (a replacement keeps both); `questionnaire` ' +
      "takes QuestionnaireConnectorSettings (the DTR service's FHIR base, a shorter time limit); `mail` " +
      'takes MailConnectorSettings (the SMTP server live-mode mail goes through, over TLS or STARTTLS only).',
  })
  @ApiBody({
    schema: {
      oneOf: [
        { $ref: getSchemaPath(EligibilityConnectorSettingsDto) },
        { $ref: getSchemaPath(ConnectorSettingsDto) },
        { $ref: getSchemaPath(CoverageRequirementsConnectorSettingsDto) },
        { $ref: getSchemaPath(QuestionnaireConnectorSettingsDto) },
        { $ref: getSchemaPath(MailConnectorSettingsDto) },
      ],
    },
  })
  @ApiConflictResponse({
    description:
      'A coverage_requirements connector, and the service has no public address to publish its keys ' +
      'at (`invalid_state`); nothing changed.',
  })
  @Answers('Connector')
  async configure(
    @CurrentPrincipal() principal: Principal,
    @Param('kind') kind: string,
    @Body() body: unknown,
  ) {
    requireLiveKeyFor(principal, 'Setting a connector');
    const settings = await validatedConnectorSettings(connectorKindOf(kind), body);
    return success(await this.connectors.configure(principal.accountId, kind, settings));
  }

  // Idempotent: a retried rotation must not rotate twice, which would drop the key in-flight JWTs name.
  @IdempotentPost('coverage_requirements/rotate-signing-key')
  @HttpCode(200)
  @Audited('connector.signing_key_rotated', 'connector')
  @ApiOperation({
    summary: "Rotate the coverage requirements connector's signing key",
    description:
      'A new key signs from now on. The key it replaces stays in the JWKS until the next rotation, ' +
      'so JWTs signed just before still verify; the one before that is dropped.',
  })
  @ApiNotFoundResponse({ description: 'The account has no coverage_requirements connector (`not_found`).' })
  @Answers('Connector')
  async rotateSigningKey(@CurrentPrincipal() principal: Principal) {
    requireLiveKeyFor(principal, "Rotating a connector's signing key");
    return success((await this.connectors.rotateSigningKey(principal.accountId)).connector);
  }

  @Delete(':kind')
  @KindParameter()
  @Audited('connector.deleted', 'connector')
  @ApiOperation({
    summary: 'Remove the settings of one connector; live cases that need it are refused from then on',
  })
  @Answers('DeletedConnector')
  async remove(@CurrentPrincipal() principal: Principal, @Param('kind') kind: string) {
    requireLiveKeyFor(principal, 'Removing a connector');
    return success(await this.connectors.remove(principal.accountId, kind));
  }
}
