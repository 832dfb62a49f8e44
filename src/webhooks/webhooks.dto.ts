import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsOptional,
  IsString,
  Length,
  Matches,
  ValidateIf,
} from 'class-validator';

import { idPattern } from '../../domain/ids';
import { Field, Stack } from '../common/dto/compose';
import { PageLimit } from '../common/dto/page-query';
import { HasNoControlCharacters, IsWebhookEvent, IsWebhookUrl } from '../common/validators';

const SECRET_RULE = { min: 16, max: 256 };
const THIN_DESCRIPTION =
  "true: notifications carry only the object's id, object, status and livemode (no PHI); fetch the rest with GET.";

export class CreateWebhookDto {
  @ApiProperty({ example: 'Pharmacy system' })
  @IsString()
  @Length(1, 100)
  @HasNoControlCharacters()
  name!: string;

  @ApiProperty({ example: 'https://pharmacy.example/hooks/access' })
  @IsWebhookUrl()
  @HasNoControlCharacters()
  url!: string;

  @ApiProperty({
    description: 'Signs every notification (HS256). Never returned after creation.',
    minLength: 16,
  })
  @IsString()
  @Length(SECRET_RULE.min, SECRET_RULE.max)
  secret!: string;

  @ApiProperty({ example: ['prior_authorization.updated', 'Benefit Verification Updated'] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(10)
  @IsWebhookEvent({ each: true })
  events!: string[];

  @ApiPropertyOptional({ description: THIN_DESCRIPTION, default: false })
  @IsOptional()
  @IsBoolean()
  thin?: boolean;
}

/**
 * PATCH fields: absent leaves the value as it is; null is no value any of them can take, so it is
 * refused rather than skipped as @IsOptional() would.
 */
const IsAbsentOrValid = () => ValidateIf((_object: object, value: unknown) => value !== undefined);

export class UpdateWebhookDto {
  @ApiPropertyOptional()
  @IsAbsentOrValid()
  @IsString()
  @Length(1, 100)
  @HasNoControlCharacters()
  name?: string;

  @ApiPropertyOptional({ description: 'Changing the URL of an active endpoint verifies it again.' })
  @IsAbsentOrValid()
  @IsWebhookUrl()
  @HasNoControlCharacters()
  url?: string;

  @ApiPropertyOptional({ description: 'Applies from the next delivery attempt on.' })
  @IsAbsentOrValid()
  @IsString()
  @Length(SECRET_RULE.min, SECRET_RULE.max)
  secret?: string;

  @ApiPropertyOptional()
  @IsAbsentOrValid()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(10)
  @IsWebhookEvent({ each: true })
  events?: string[];

  @ApiPropertyOptional({
    description: 'true: activating, then active once the URL is verified; false: inactive.',
  })
  @IsAbsentOrValid()
  @IsBoolean()
  active?: boolean;

  @ApiPropertyOptional({ description: `${THIN_DESCRIPTION} Applies from the next delivery attempt on.` })
  @IsAbsentOrValid()
  @IsBoolean()
  thin?: boolean;
}

export class ListDeliveriesQuery {
  @PageLimit()
  limit?: number;

  @Stack(
    Field({
      optional: true,
      description:
        'The next_cursor of the previous page: the id of the delivery it ended on. Any delivery id is taken ' +
        'as a position; the next page holds the deliveries made before it.',
      example: 'whd_01jc9w6v3m8k2q5r7t9x1z3b5d',
    }),
    Matches(idPattern('delivery'), { message: 'must be a next_cursor this list returned: a delivery id' }),
  )
  cursor?: string;
}
