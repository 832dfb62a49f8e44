import { Body, HttpCode, Inject, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Payload } from '@temporalio/common';
import { Type } from 'class-transformer';
import {
  IsArray,
  IsBase64,
  isBase64,
  IsObject,
  IsOptional,
  ValidateBy,
  ValidateNested,
} from 'class-validator';

import type { AppConfig } from '../../infrastructure/config/config';
import { EncryptionCodec } from '../../infrastructure/temporal/encryption-codec';
import { ApiController } from '../common/api-controller';
import { APP_CONFIG } from '../common/tokens';
import { CodecAudit } from '../audit/audit.module';
import { LoopbackTrusted } from '../common/route-access';
import { ApiError } from '../common/errors';
import type { ContextualRequest } from '../common/request-context';
import { AnswersBare } from '../contract/answers';

/** class-validator's isBase64: padded standard base64, the empty string included. */
const BASE64 = '^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$';

class CodecPayloadDto {
  @ApiProperty({
    description:
      'Payload metadata, each value base64 as Temporal encodes it. Decoding opens payloads whose encoding is ' +
      'binary/encrypted, which must carry the key id and data this service sealed; others pass through.',
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { encoding: 'anNvbi9wbGFpbg==' },
  })
  @IsObject()
  @IsBase64Record()
  metadata!: Record<string, string>;

  @ApiPropertyOptional({ description: 'Payload data, base64.', pattern: BASE64 })
  @IsOptional()
  @IsBase64()
  data?: string;
}

/** Temporal's codec JSON carries each metadata value as base64 text; anything else is not a payload. */
function IsBase64Record(): PropertyDecorator {
  return ValidateBy({
    name: 'isBase64Record',
    constraints: [
      {
        schema: {
          type: 'object',
          additionalProperties: { type: 'string', contentEncoding: 'base64', pattern: BASE64 },
        },
      },
    ],
    validator: {
      validate: (value) =>
        typeof value === 'object' &&
        value !== null &&
        Object.values(value).every((entry) => typeof entry === 'string' && isBase64(entry)),
      defaultMessage: () => 'must map each metadata key to a base64 string',
    },
  });
}

class CodecRequestDto {
  @ApiProperty({ type: () => [CodecPayloadDto] })
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => CodecPayloadDto)
  payloads!: CodecPayloadDto[];
}

/**
 * The remote codec Temporal Web calls to show operators decrypted payloads. It speaks Temporal's
 * codec-server JSON (base64 metadata and data), answers bare JSON rather than our envelope because
 * Temporal Web expects exactly that, and requires the platform operator role: one key decodes every
 * account's PHI, so no account's own key may.
 */
@ApiController('codec', { role: 'operator', tag: 'operations' })
@LoopbackTrusted()
export class CodecController {
  private readonly codec: EncryptionCodec;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(CodecAudit) private readonly audit: CodecAudit,
  ) {
    this.codec = new EncryptionCodec(config.encryption!);
  }

  @Post('decode')
  @HttpCode(200)
  @ApiOperation({ summary: 'Decrypt Temporal payloads (for Temporal Web and the CLI)' })
  @AnswersBare('CodecPayloads')
  async decode(@Body() body: CodecRequestDto, @Req() request: ContextualRequest) {
    // Decoding is pure computation over the request, so every failure is the request's.
    const decoded = await this.codec.decode(body.payloads.map(fromJson)).catch(() => {
      throw new ApiError('validation_error', 'The request is invalid; see details.', [
        {
          field: 'payloads',
          issue: 'an encrypted payload lacks its key id or data, names an unknown key, or was altered',
        },
      ]);
    });
    await this.audit.record(request.context, 'codec.decoded', decoded);
    return { payloads: decoded.map(toJson) };
  }

  @Post('encode')
  @HttpCode(200)
  @ApiOperation({ summary: 'Encrypt Temporal payloads (for signals sent from Temporal Web and the CLI)' })
  @AnswersBare('CodecPayloads')
  async encode(@Body() body: CodecRequestDto, @Req() request: ContextualRequest) {
    const plaintext = body.payloads.map(fromJson);
    const encoded = await this.codec.encode(plaintext);
    await this.audit.record(request.context, 'codec.encoded', plaintext);
    return { payloads: encoded.map(toJson) };
  }
}

function fromJson(payload: CodecPayloadDto): Payload {
  return {
    metadata: Object.fromEntries(
      Object.entries(payload.metadata).map(([key, value]) => [key, Buffer.from(String(value), 'base64')]),
    ),
    data: payload.data == null ? undefined : Buffer.from(payload.data, 'base64'),
  };
}

function toJson(payload: Payload): CodecPayloadDto {
  return {
    metadata: Object.fromEntries(
      Object.entries(payload.metadata ?? {}).map(([key, value]) => [
        key,
        Buffer.from(value).toString('base64'),
      ]),
    ),
    data: payload.data ? Buffer.from(payload.data).toString('base64') : undefined,
  };
}
