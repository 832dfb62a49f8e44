import { ArgumentMetadata, BadRequestException } from '@nestjs/common';

import { CasePatientDto, InsuranceContentDto, ProviderDto } from '../../src/cases/case-request-parts.dto';
import { LIMITS } from '../../src/common/dto/request-vocabulary';
import { createValidationPipe } from '../../src/common/validation';
import {
  EnrollmentOutcomeDto,
  EnrollmentPatientDto,
  InsuranceDataDto,
} from '../../src/cases/types/patient-enrollment/patient-enrollment.dto';

type Metatype = NonNullable<ArgumentMetadata['metatype']>;

/** The `field: issue` lines about `field` when `body` goes through the service's validation pipe. */
async function issuesAbout(metatype: Metatype, field: string, body: Record<string, unknown>) {
  try {
    await createValidationPipe().transform(body, { type: 'body', metatype });
  } catch (error) {
    const lines = ((error as BadRequestException).getResponse() as { message: string[] }).message;
    return lines.filter((line) => line.startsWith(`${field}: `));
  }
  return [];
}

describe('the request vocabulary shared by every case type', () => {
  it.each([
    ['a benefit verification or prior authorization patient', CasePatientDto],
    ['an enrollment patient', EnrollmentPatientDto],
    ['a provider', ProviderDto],
  ])('holds %s to one name limit', async (_label, metatype) => {
    const tooLong = 'n'.repeat(LIMITS.name + 1);

    expect(await issuesAbout(metatype, 'first_name', { first_name: tooLong })).toEqual([
      `first_name: must be shorter than or equal to ${LIMITS.name} characters`,
    ]);
    expect(await issuesAbout(metatype, 'first_name', { first_name: 'n'.repeat(LIMITS.name) })).toEqual([]);
  });

  it.each([
    ['discrete insurance data of a case', InsuranceContentDto, 'rx_bin'],
    ['insurance data of an enrollment', InsuranceDataDto, 'rx_bin'],
    ["a program's enrollment outcome", EnrollmentOutcomeDto, 'bin'],
  ])('reads a pharmacy BIN in %s as 6 digits', async (_label, metatype, field) => {
    expect(await issuesAbout(metatype, field, { [field]: '61001' })).toEqual([`${field}: must be 6 digits`]);
    expect(await issuesAbout(metatype, field, { [field]: '999901' })).toEqual([]);
  });
});
