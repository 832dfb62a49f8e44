import { Controller, Get, Header, Inject, Param } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';

import { JWKS_ROUTE } from '../../infrastructure/connectors/connector-signing-keys';
import { PublicRoute } from '../common/route-access';
import { AnswersBare } from '../contract/answers';
import { ConnectorsService } from './connectors.service';

/**
 * A coverage requirements connector's JWKS URL: the payer's CDS service fetches the public keys
 * here to verify the JWTs the connector signs, without an API key of ours. It serves public keys
 * only; the id is random, and the per-address limit on keyless requests bounds guessing.
 */
@ApiTags('connectors')
@Controller(JWKS_ROUTE)
@PublicRoute()
export class JwksController {
  constructor(@Inject(ConnectorsService) private readonly connectors: ConnectorsService) {}

  @Get(':jwksId')
  @ApiParam({ name: 'jwksId', description: "The id in the connector's `signing.jwks_url`." })
  @ApiOperation({
    summary: "A coverage requirements connector's public signing keys (JWKS), without an API key",
    description:
      'The current key and the one the last rotation replaced. Each answer may be cached for a minute, ' +
      'so a payer sees a rotated key soon; a JWT naming a `kid` its copy lacks means fetching again.',
  })
  // Short: a rotated key signs at once, and a cache that still holds the old set cannot verify it.
  @Header('Cache-Control', 'public, max-age=60')
  @AnswersBare('JsonWebKeySet')
  async keys(@Param('jwksId') jwksId: string) {
    return { keys: await this.connectors.publishedKeys(jwksId) };
  }
}
