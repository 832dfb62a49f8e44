import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsEmail,
  IsIn,
  IsInt,
  IsOptional,
  Length,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';

import { PROVIDER_AUTHORIZATION_STATUSES } from '../../domain/providers/provider-authorization';
import { AtLeastOneOf, IsNpi } from '../common/dto/case-validators';
import { Field, FieldOptions, Stack, TextField } from '../common/dto/compose';
import { PageCursor, PageLimit } from '../common/dto/page-query';
import { LIMITS } from '../common/dto/request-vocabulary';

const NAME = /^[\p{L}\p{M}' .-]+$/u;

/** A prescriber's name as the NPI registry lists it, which the registry check compares. */
const RegistryName = (options: FieldOptions) =>
  Stack(
    TextField(LIMITS.name, options),
    Matches(NAME, { message: 'must be letters, spaces, hyphens, apostrophes or periods' }),
  );

export class CreateProviderAuthorizationDto {
  @Field({ description: "The prescriber's 10-digit NPI.", example: '1234567893' })
  @IsNpi()
  npi!: string;

  @RegistryName({
    description: "The prescriber's first name, as the NPI registry lists it (a first initial counts).",
    example: 'Amadou',
  })
  first_name!: string;

  @RegistryName({
    description: "The prescriber's last name, as the NPI registry lists it.",
    example: 'Reviewsworth',
  })
  last_name!: string;

  @Field({ description: 'Where the signing link is mailed.', example: 'a.reviewsworth@clinic.example' })
  @IsEmail()
  @Length(3, 320)
  email!: string;

  @TextField(40, {
    optional: true,
    description: "The prescriber's phone, for the clinic's records.",
    example: '+1 503 555 0100',
  })
  phone?: string;

  @TextField(LIMITS.label, {
    optional: true,
    description: "The practice the prescriber signs for, for the clinic's records.",
    example: 'Riverside Family Practice',
  })
  practice?: string;
}

export class ListProviderAuthorizationsQuery {
  @Field({
    optional: true,
    enum: PROVIDER_AUTHORIZATION_STATUSES,
    description: 'Only authorizations of this status.',
  })
  @IsIn(PROVIDER_AUTHORIZATION_STATUSES)
  status?: (typeof PROVIDER_AUTHORIZATION_STATUSES)[number];

  @Field({ optional: true, description: 'Only authorizations of this NPI.', example: '1234567893' })
  @IsNpi()
  npi?: string;

  @PageLimit()
  limit?: number;

  @PageCursor()
  cursor?: string;
}

class RequirementByModeDto {
  @ApiPropertyOptional({ description: 'In test mode.' })
  @IsOptional()
  @IsBoolean()
  test?: boolean;

  @ApiPropertyOptional({ description: 'In live mode.' })
  @IsOptional()
  @IsBoolean()
  live?: boolean;
}

export class UpdateAccountSettingsDto {
  @ApiPropertyOptional({
    type: () => RequirementByModeDto,
    description:
      'Whether a benefit verification or prior authorization needs a signed, current authorization of its prescriber (409 provider_not_authorized otherwise), per mode.',
  })
  // A PATCH that names no setting is a mistake, not a no-op.
  @AtLeastOneOf(['require_provider_authorization', 'provider_authorization_period_days'])
  @ValidateNested()
  @Type(() => RequirementByModeDto)
  require_provider_authorization?: RequirementByModeDto;

  @ApiPropertyOptional({
    minimum: 1,
    maximum: 3650,
    description: 'How long a signature lasts, in days (365 by default).',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(3650)
  provider_authorization_period_days?: number;
}
