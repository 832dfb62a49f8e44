import { plain } from '../../src/cases/case-request-mapping';
import { CreateBenefitVerificationDto } from '../../src/cases/types/benefit-verification/benefit-verification.dto';
import { CreatePriorAuthorizationDto } from '../../src/cases/types/prior-authorization/prior-authorization.dto';
import { createValidationPipe } from '../../src/common/validation';
import {
  benefitVerificationRequest,
  insuranceContent,
  priorAuthorizationRequest,
} from '../support/case-requests';

/** A body as the API edge hands it on: validated and turned into the request's classes. */
async function validated(metatype: new () => object, body: Record<string, unknown>): Promise<object> {
  return (await createValidationPipe().transform(body, { type: 'body', metatype })) as object;
}

describe('the request a case keeps', () => {
  it('leaves out an optional field sent as null, as if it had not been sent', async () => {
    const body = benefitVerificationRequest({ insurance_content: { ...insuranceContent, plan_type: null } });
    const kept = plain(await validated(CreateBenefitVerificationDto, body)) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

    expect(kept.insurance_content).not.toHaveProperty('plan_type');
    expect(kept.insurance_content.member_id).toBe(insuranceContent.member_id);
  });

  it("keeps the nulls of free-form evidence content, which is the provider's own JSON", async () => {
    const evidence = [{ title: 'Therapy', date_created: '2026-10-01T09:30:00', content: { end_date: null } }];
    const body = priorAuthorizationRequest({ evidence });
    const kept = plain(await validated(CreatePriorAuthorizationDto, body)) as { evidence: typeof evidence };

    expect(kept.evidence[0]!.content).toEqual({ end_date: null });
  });
});
