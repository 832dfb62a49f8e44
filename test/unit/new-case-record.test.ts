import { newCaseRecord } from '../../src/cases/case-request-mapping';

const context = { caseId: 'bv_1', now: new Date('2026-11-30T01:00:00.000Z'), livemode: false };
const descriptions = { processing: 'Checking coverage with the payer.', completed: 'Coverage was checked.' };

describe('a new case record', () => {
  it('starts in processing, described as its type describes processing, its submission the first history entry', () => {
    const record = newCaseRecord('benefit_verification', context, descriptions, {});

    expect(record).toMatchObject({
      id: 'bv_1',
      object: 'benefit_verification',
      status: 'processing',
      status_description: 'Checking coverage with the payer.',
      created_at: '2026-11-30T01:00:00.000Z',
      status_history: [{ status: 'processing', at: '2026-11-30T01:00:00.000Z', reason: 'Submitted.' }],
    });
  });

  it("keeps the request's metadata", () => {
    const record = newCaseRecord('benefit_verification', context, descriptions, {
      metadata: { clinic_ref: 'A-7' },
    });

    expect(record.metadata).toEqual({ clinic_ref: 'A-7' });
  });

  it('has empty metadata when the request sends none', () => {
    expect(newCaseRecord('benefit_verification', context, descriptions, {}).metadata).toEqual({});
  });
});
