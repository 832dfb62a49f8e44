import { resourceUrn } from '../../infrastructure/connectors/pas/pas-request';
import {
  hookInstanceOf,
  orderSignRequest,
  orderSignSubject,
} from '../../infrastructure/connectors/crd/order-sign-request';
import { crdQuery, crdQueryFor, infernoFixture } from '../fixtures/crd/crd-fixtures';

type Json = ReturnType<typeof infernoFixture>;

const CRD = 'http://hl7.org/fhir/us/davinci-crd/StructureDefinition';
const SIGNED_AT = new Date('2026-11-28T12:00:00.000Z');
const query = crdQuery();
const request = JSON.parse(
  JSON.stringify(orderSignRequest(query, hookInstanceOf(query.caseId), SIGNED_AT)),
) as Json;
const order = request.context.draftOrders.entry[0].resource as Json;

describe("Our order-sign request, beside Inferno's CRD test kit", () => {
  const inferno = infernoFixture('order_sign_hook_request.json');
  const infernoOrder = (inferno.context.draftOrders.entry as Json[])
    .map((entry) => entry.resource as Json)
    .find((resource) => resource.resourceType === 'MedicationRequest')!;

  it("has the kit's request keys, less the FHIR server we do not expose", () => {
    const expected = Object.keys(inferno).filter((key) => !['fhirServer', 'fhirAuthorization'].includes(key));
    expect(Object.keys(request).sort()).toEqual([...expected, 'prefetch'].sort());
    expect(request.hook).toBe(inferno.hook);
    expect(request).not.toHaveProperty('fhirServer');
    expect(request).not.toHaveProperty('fhirAuthorization');
  });

  it("has the kit's context: a Practitioner user, the patient id and the draft orders as a Bundle", () => {
    expect(Object.keys(request.context).sort()).toEqual(Object.keys(inferno.context).sort());
    expect(request.context.userId).toMatch(/^Practitioner\/[0-9a-f-]{36}$/);
    expect(inferno.context.userId).toMatch(/^Practitioner\//);
    expect(request.context.draftOrders.resourceType).toBe(inferno.context.draftOrders.resourceType);
  });

  it("sends a draft MedicationRequest with every element of the kit's, the narrative aside", () => {
    const ours = new Set(Object.keys(order));
    expect(Object.keys(infernoOrder).filter((key) => key !== 'text' && !ours.has(key))).toEqual([]);
    expect(order).toMatchObject({ status: infernoOrder.status, intent: infernoOrder.intent });
  });

  it("prefetches what the kit's order-sign service asks for, each as its template would find it", () => {
    const service = (infernoFixture('cds-services.json').services as Json[]).find(
      (entry) => entry.hook === 'order-sign',
    )!;
    expect(Object.keys(request.prefetch).sort()).toEqual(Object.keys(service.prefetch).sort());

    const { patient, user, coverage } = request.prefetch;
    expect(`${patient.resourceType}/${patient.id}`).toBe(`Patient/${request.context.patientId}`);
    expect(`${user.resourceType}/${user.id}`).toBe(request.context.userId);
    expect(coverage).toMatchObject({ resourceType: 'Bundle', type: 'searchset', total: 1 });
    expect(coverage.entry[0].resource).toMatchObject({
      resourceType: 'Coverage',
      status: 'active',
      beneficiary: { reference: `Patient/${request.context.patientId}` },
    });
  });
});

describe("The order-sign request's resources", () => {
  const { patient, user: practitioner } = request.prefetch;
  const coverage = request.prefetch.coverage.entry[0].resource as Json;

  it('each claim their CRD 2.0.1 profile', () => {
    expect(order.meta.profile).toEqual([`${CRD}/profile-medicationrequest`]);
    expect(coverage.meta.profile).toEqual([`${CRD}/profile-coverage`]);
    expect(patient.meta.profile).toEqual([`${CRD}/profile-patient`]);
    expect(practitioner.meta.profile).toEqual([`${CRD}/profile-practitioner`]);
  });

  it('codes a medical-benefit drug by NDC and HCPCS, with its quantity, days supply and diagnoses', () => {
    expect(order).toMatchObject({
      medicationCodeableConcept: {
        coding: [
          { system: 'http://hl7.org/fhir/sid/ndc', code: '57894003001' },
          { system: 'http://www.cms.gov/Medicare/Coding/HCPCSReleaseCodeSets', code: 'J1745' },
        ],
        text: 'Remicade 100 mg vial',
      },
      authoredOn: '2026-11-28T12:00:00.000Z',
      dosageInstruction: [{ text: '5 mg/kg IV' }],
      dispenseRequest: {
        quantity: { value: 4 },
        expectedSupplyDuration: { value: 56, unit: 'days', system: 'http://unitsofmeasure.org', code: 'd' },
      },
      reasonCode: [
        {
          coding: [
            {
              system: 'http://hl7.org/fhir/sid/icd-10-cm',
              code: 'K50.90',
              display: 'Crohn disease, unspecified',
            },
          ],
        },
      ],
    });
  });

  it('codes a pharmacy-benefit drug by its NDC alone', () => {
    const ozempic = orderSignRequest(crdQueryFor({ drug_name: 'Ozempic 1 mg pen', quantity: 1 }), 'hook-1');
    expect(ozempic.context.draftOrders.entry[0]!.resource.medicationCodeableConcept).toEqual({
      coding: [{ system: 'http://hl7.org/fhir/sid/ndc', code: '00169413212' }],
      text: 'Ozempic 1 mg pen',
    });
  });

  it('ties the order to the patient, the prescriber and the coverage by reference', () => {
    expect(order.subject.reference).toBe(`Patient/${patient.id}`);
    expect(order.requester.reference).toBe(`Practitioner/${practitioner.id}`);
    expect(order.insurance).toEqual([{ reference: `Coverage/${coverage.id}` }]);
  });

  it('names the member, the payer and the plan on the coverage', () => {
    expect(coverage).toMatchObject({
      identifier: [{ type: { coding: [{ code: 'MB' }] }, value: 'ZZCRD0001' }],
      subscriberId: 'ZZCRD0001',
      payor: [{ identifier: { value: 'blue_horizon_health' }, display: 'Blue Horizon Health' }],
      class: [
        { type: { coding: [{ code: 'group' }] }, value: 'SBXBHH0100' },
        { type: { coding: [{ code: 'plan' }] }, value: 'bhh_ppo_select', name: 'Blue Horizon PPO Select' },
      ],
    });
  });

  it("identifies the patient by the clinic's record number and the prescriber by NPI, as the profiles require", () => {
    expect(patient.identifier[0]).toMatchObject({
      type: { coding: [{ code: 'MR' }] },
      value: 'patient-0001',
    });
    expect(patient).toMatchObject({ gender: 'female', birthDate: '1975-03-02' });
    expect(practitioner.identifier).toEqual([
      { system: 'http://hl7.org/fhir/sid/us-npi', value: '1234567893' },
    ]);
  });

  it('gives every resource the id the PAS Bundle gives it, derived from the case id alone', () => {
    expect(patient.id).toBe(resourceUrn(query.caseId, 'patient').slice('urn:uuid:'.length));
    expect({ orderId: order.id, coverageId: coverage.id }).toEqual(orderSignSubject(query.caseId));
    const ids = JSON.stringify([request.hookInstance, patient.id, practitioner.id, coverage.id, order.id]);
    for (const personal of ['Elowen', 'Testperson', '1975', 'ZZCRD0001', 'patient-0001', '1234567893'])
      expect(ids).not.toContain(personal);
  });

  it('is the same for the same case and signing time', () => {
    expect(orderSignRequest(query, hookInstanceOf(query.caseId), SIGNED_AT)).toEqual(request);
  });
});
