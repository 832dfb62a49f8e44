import { Body, Controller, HttpCode, Inject, Post, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Payload } from '@temporalio/common';
import { Type } from 'class-transformer';
import { IsArray, IsBase64, IsObject, IsOptional, ValidateNested } from 'class-validator';

import { APP_CONFIG } from '../app/tokens';
import { CodecAudit } from '../audit/codec-audit';
import { LoopbackTrusted, RequiresRole } from '../auth/auth.decorators';
import type { ContextualRequest } from '../common/request-context';
import type { AppConfig } from '../config/config';
import { EncryptionCodec } from '../temporal/encryption-codec';

class CodecPayloadDto {
  @IsObject()
  metadata!: Record<string, string>;

  @IsOptional()
  @IsBase64()
  data?: string;
}

class CodecRequestDto {
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
@ApiTags('operations')
@ApiBearerAuth()
@Controller('codec')
@RequiresRole('operator')
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
  async decode(@Body() body: CodecRequestDto, @Req() request: ContextualRequest) {
    const decoded = await this.codec.decode(body.payloads.map(fromJson));
    await this.audit.record(request.context, 'codec.decoded', decoded);
    return { payloads: decoded.map(toJson) };
  }

  @Post('encode')
  @HttpCode(200)
  @ApiOperation({ summary: 'Encrypt Temporal payloads (for signals sent from Temporal Web and the CLI)' })
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
    data: payload.data === undefined ? undefined : Buffer.from(payload.data, 'base64'),
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
