import { ArgumentMetadata, BadRequestException } from '@nestjs/common';

import { DrugDto } from '../../src/cases/case-request-parts.dto';
import { ListCasesQueryDto } from '../../src/cases/case-requests.dto';
import { createValidationPipe } from '../../src/common/validation';
import { CreateWebhookDto, ListDeliveriesQuery, UpdateWebhookDto } from '../../src/webhooks/webhooks.dto';

type Metatype = NonNullable<ArgumentMetadata['metatype']>;

/** The fields the validation pipe refuses `value` on, or [] when it accepts it. */
async function refusedFields(metatype: Metatype, value: unknown, type: 'body' | 'query' = 'body') {
  try {
    await createValidationPipe().transform(value, { type, metatype });
    return [];
  } catch (error) {
    if (!(error instanceof BadRequestException)) throw error;
    const messages = (error.getResponse() as { message: string[] }).message;
    return messages.map((message) => message.slice(0, message.indexOf(': ')));
  }
}

// Each of these was a request the OpenAPI document calls invalid that the service took (or answered 500).
describe('requests the conformance run found the service too lenient with', () => {
  it('refuses an empty drug name even when an NDC is given', async () => {
    expect(await refusedFields(DrugDto, { name: '', ndc: '00093-7214-01', quantity: 30 })).toEqual(['name']);
  });

  it('refuses a webhook name with a control character, which the database cannot store', async () => {
    const endpoint = {
      name: 'Pharmacy\u0000system',
      url: 'https://pharmacy.example/hooks',
      secret: 'a-secret-of-enough-length',
      events: ['prior_authorization.updated'],
    };
    expect(await refusedFields(CreateWebhookDto, endpoint)).toEqual(['name']);
  });

  it('refuses null for a webhook field in a PATCH, as no field can take it', async () => {
    expect(await refusedFields(UpdateWebhookDto, { events: null })).toContain('events');
    expect(await refusedFields(UpdateWebhookDto, { name: 'Renamed' })).toEqual([]);
  });

  it('refuses a list cursor of another shape than the document states', async () => {
    expect(await refusedFields(ListCasesQueryDto, { cursor: 'not a cursor!' }, 'query')).toEqual(['cursor']);
  });

  it('takes a list cursor of the documented shape, whichever position it names', async () => {
    expect(await refusedFields(ListCasesQueryDto, { cursor: '0_a' }, 'query')).toEqual([]);
  });

  it("takes any delivery id as a delivery list's cursor, and nothing else", async () => {
    const anyDeliveryId = `whd_${'0'.repeat(26)}`;
    expect(await refusedFields(ListDeliveriesQuery, { cursor: anyDeliveryId }, 'query')).toEqual([]);
    expect(await refusedFields(ListDeliveriesQuery, { cursor: '0' }, 'query')).toEqual(['cursor']);
  });
});
