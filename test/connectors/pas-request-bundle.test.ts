import {
  resourceUrn,
  writeInformationBundle,
  writeInquiryBundle,
  writeSubmitBundle,
} from '../../infrastructure/connectors/pas/pas-request';
import { readPasRequest } from '../../infrastructure/connectors/pas/simulated-pas-endpoint';
import { newId } from '../../domain/ids';
import { REGISTRY_MATCH } from '../fixtures/prescriber-registry-match';
import { answeredQuestionnaire } from '../support/answered-questionnaire';
import { remicadeExchange, remicadeInformation, remicadeInquiry } from '../support/pas-exchanges';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const SENT_AT = { sentAt: new Date('2026-11-25T12:00:00.000Z') };
const PAS = 'http://hl7.org/fhir/us/davinci-pas';

const parsed = (body: string) => JSON.parse(body) as Json;
const resources = (bundle: Json): Json[] => (bundle.entry as Json[]).map((entry) => entry.resource as Json);
const ofType = (bundle: Json, type: string) =>
  resources(bundle).filter((resource) => resource.resourceType === type);
const claimOf = (bundle: Json) => bundle.entry[0].resource as Json;

/** Every `{ reference }` anywhere in a document. */
function references(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(references);
  if (!value || typeof value !== 'object') return [];
  const object = value as Json;
  return [
    ...(typeof object.reference === 'string' ? [object.reference] : []),
    ...Object.values(object).flatMap(references),
  ];
}

describe('The PAS $submit Bundle of a medical-benefit prior authorization', () => {
  const bundle = parsed(writeSubmitBundle(remicadeExchange(), SENT_AT));
  const claim = claimOf(bundle);

  it('is the same bytes for the same input, with ids derived from the case, never random', () => {
    expect(writeSubmitBundle(remicadeExchange(), SENT_AT)).toBe(
      writeSubmitBundle(remicadeExchange(), SENT_AT),
    );
    expect(bundle.entry.map((entry: Json) => entry.fullUrl)).toContain(
      resourceUrn('pa_01jq0000000000000000000000', 'patient'),
    );
    for (const entry of bundle.entry as Json[]) expect(entry.fullUrl).toMatch(/^urn:uuid:[0-9a-f-]{36}$/);
  });

  it('is a collection, with an identifier and a timestamp, whose first entry is the PAS Claim', () => {
    expect(bundle).toMatchObject({
      resourceType: 'Bundle',
      type: 'collection',
      identifier: { value: 'pa_01jq0000000000000000000000-submit' },
      timestamp: '2026-11-25T12:00:00.000Z',
      meta: { profile: [`${PAS}/StructureDefinition/profile-pas-request-bundle`] },
    });
    expect(claim).toMatchObject({
      resourceType: 'Claim',
      meta: { profile: [`${PAS}/StructureDefinition/profile-claim`] },
      status: 'active',
      use: 'preauthorization',
      identifier: [
        { system: 'urn:healthcare-access-api:prior-authorization', value: 'pa_01jq0000000000000000000000' },
      ],
      type: { coding: [{ code: 'professional' }] },
      priority: {
        coding: [{ system: 'http://terminology.hl7.org/CodeSystem/processpriority', code: 'normal' }],
      },
    });
  });

  it('names the patient, the payer as insurer, the prescriber and a focal Coverage, all inside the Bundle', () => {
    const fullUrls = new Set(bundle.entry.map((entry: Json) => entry.fullUrl));
    for (const reference of references(bundle)) expect(fullUrls).toContain(reference);
    const byUrl = new Map<string, Json>(bundle.entry.map((entry: Json) => [entry.fullUrl, entry.resource]));
    expect(byUrl.get(claim.patient.reference)).toMatchObject({
      resourceType: 'Patient',
      birthDate: '1975-03-02',
    });
    expect(byUrl.get(claim.insurer.reference)).toMatchObject({
      resourceType: 'Organization',
      name: 'Sandbox Health Plan',
    });
    expect(byUrl.get(claim.provider.reference)).toMatchObject({ resourceType: 'PractitionerRole' });
    expect(claim.insurance).toEqual([expect.objectContaining({ sequence: 1, focal: true })]);
    expect(byUrl.get(claim.insurance[0].coverage.reference)).toMatchObject({
      resourceType: 'Coverage',
      subscriberId: 'ZZLIVE0001',
      class: [{ value: 'GRP100' }],
      payor: [{ reference: claim.insurer.reference }],
    });
    expect(ofType(bundle, 'Practitioner')).toEqual([
      expect.objectContaining({
        identifier: [{ system: 'http://hl7.org/fhir/sid/us-npi', value: '1234567893' }],
      }),
    ]);
  });

  it("names the patient by the clinic's record number and by the member id in the payer's namespace", () => {
    expect(ofType(bundle, 'Patient')[0]!.identifier).toEqual([
      {
        type: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0203', code: 'MR' }] },
        system: 'urn:healthcare-access-api:acct_01jq0000000000000000000000:patient',
        value: 'patient-0001',
      },
      {
        type: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0203', code: 'MB' }] },
        system: 'urn:healthcare-access-api:payer:SBX01:member',
        value: 'ZZLIVE0001',
      },
    ]);
  });

  it('names the patient by the record number alone when no payer id places the member id, which the Coverage still carries', () => {
    const exchange = remicadeExchange();
    const unplaced = parsed(
      writeSubmitBundle(
        {
          ...exchange,
          request: {
            ...exchange.request,
            insurance_content: { payer: 'Sandbox Health Plan', member_id: 'ZZLIVE0001' },
          },
        },
        SENT_AT,
      ),
    );
    expect(ofType(unplaced, 'Patient')[0]!.identifier).toEqual([
      expect.objectContaining({
        system: 'urn:healthcare-access-api:acct_01jq0000000000000000000000:patient',
      }),
    ]);
    expect(ofType(unplaced, 'Coverage')[0]!.subscriberId).toBe('ZZLIVE0001');
  });

  it('dates the order when the case was made, in every Bundle of the case, whenever it is sent', () => {
    const caseId = newId('priorAuthorization', Date.parse('2026-11-20T09:15:00.123Z'));
    const later = { sentAt: new Date('2026-12-01T08:00:00.000Z') };
    const orders = [
      writeSubmitBundle(remicadeExchange({ caseId }), SENT_AT),
      writeInquiryBundle({ ...remicadeInquiry(), caseId }, later),
      writeInformationBundle({ ...remicadeInformation(), caseId }, later),
    ].map((body) => ofType(parsed(body), 'MedicationRequest')[0]!);
    for (const order of orders) expect(order.authoredOn).toBe('2026-11-20T09:15:00.123Z');
  });

  it("lends the prescriber the registry's practice address and taxonomy where the request leaves them out", () => {
    const exchange = remicadeExchange();
    const withRegistry = parsed(writeSubmitBundle({ ...exchange, prescriber: REGISTRY_MATCH }, SENT_AT));
    expect(ofType(withRegistry, 'Practitioner')[0]!.address).toEqual([
      expect.objectContaining({
        line: ['1 Registry Way'],
        city: 'Springfield',
        state: 'IL',
        postalCode: '62701',
      }),
    ]);
    expect(ofType(withRegistry, 'PractitionerRole')[0]!.specialty).toEqual([
      {
        coding: [
          { system: 'http://nucc.org/provider-taxonomy', code: '207Q00000X', display: 'Family Medicine' },
        ],
      },
    ]);
  });

  it("keeps the request's own practice address over the registry's", () => {
    const exchange = remicadeExchange();
    const ownAddress = {
      street: '9 Clinic Road',
      city: 'Peoria',
      state_province: 'IL',
      zip_postal_code: '61602',
      country: 'US',
    };
    const bundle = parsed(
      writeSubmitBundle(
        {
          ...exchange,
          request: { ...exchange.request, provider: { ...exchange.request.provider, address: ownAddress } },
          prescriber: REGISTRY_MATCH,
        },
        SENT_AT,
      ),
    );
    expect(ofType(bundle, 'Practitioner')[0]!.address).toEqual([
      expect.objectContaining({ line: ['9 Clinic Road'], city: 'Peoria' }),
    ]);
  });

  it('asks for the drug under its HCPCS code, with the quantity, the MedicationRequest and the ICD-10-CM diagnoses', () => {
    const [item] = claim.item as Json[];
    expect(item!.productOrService).toEqual({
      coding: [{ system: 'http://www.cms.gov/Medicare/Coding/HCPCSReleaseCodeSets', code: 'J1745' }],
    });
    expect(item!.quantity).toEqual({ value: 4 });
    expect(item!.category.coding[0].code).toBe('1');
    expect(item!.locationCodeableConcept).toBeDefined();
    const requested = (item!.extension as Json[]).find((extension) =>
      extension.url.endsWith('extension-requestedService'),
    );
    expect(ofType(bundle, 'MedicationRequest')[0]).toMatchObject({ status: 'active', intent: 'order' });
    expect(
      bundle.entry.find((entry: Json) => entry.fullUrl === requested!.valueReference.reference).resource
        .resourceType,
    ).toBe('MedicationRequest');
    for (const url of ['extension-serviceItemRequestType', 'extension-certificationType'])
      expect((item!.extension as Json[]).some((extension) => extension.url.endsWith(url))).toBe(true);
    expect(claim.diagnosis).toEqual([
      {
        sequence: 1,
        diagnosisCodeableConcept: {
          coding: [
            {
              system: 'http://hl7.org/fhir/sid/icd-10-cm',
              code: 'K50.90',
              display: 'Crohn disease, unspecified',
            },
          ],
        },
      },
    ]);
  });

  it('sends evidence and visit notes as supporting DocumentReferences, and never the insurance card', () => {
    const exchange = remicadeExchange();
    exchange.request.insurance = [
      {
        document_id: 'doc_card',
        name: 'card.png',
        type: 'image/png',
        sha256: 'a'.repeat(64),
        size_bytes: 10,
      },
    ];
    const withCard = parsed(writeSubmitBundle(exchange, SENT_AT));
    const documents = ofType(withCard, 'DocumentReference');
    expect(documents.map((document) => document.description)).toEqual(['Colonoscopy report', 'Visit note']);
    // PAS 2.0.1 profiles no DocumentReference: the documents claim none.
    for (const document of documents) expect(document.meta).toBeUndefined();
    expect(documents[1]!.content[0].attachment).toMatchObject({
      contentType: 'text/plain',
      data: Buffer.from('Failed azathioprine for 6 months.').toString('base64'),
    });
    expect(JSON.stringify(withCard)).not.toContain('doc_card');
    expect(claimOf(withCard).supportingInfo).toEqual([
      expect.objectContaining({
        sequence: 1,
        category: { coding: [{ system: `${PAS}/CodeSystem/PASTempCodes`, code: 'additionalInformation' }] },
      }),
      expect.objectContaining({ sequence: 2 }),
    ]);
    for (const info of claimOf(withCard).supportingInfo as Json[]) {
      const documentInformation = (info.extension as Json[]).find((extension) =>
        extension.url.endsWith('extension-documentInformation'),
      );
      expect(documentInformation!.extension).toContainEqual(
        expect.objectContaining({ url: 'reportTypeCode', valueCodeableConcept: expect.anything() }),
      );
    }
  });

  it('sends no supporting information when the request has no evidence, visit note or questionnaire', () => {
    const exchange = remicadeExchange();
    const bare = parsed(
      writeSubmitBundle(
        { ...exchange, request: { ...exchange.request, evidence: [], visit_notes: [] } },
        SENT_AT,
      ),
    );
    expect(claimOf(bare)).not.toHaveProperty('supportingInfo');
    expect(claimOf(bare).item[0]).not.toHaveProperty('informationSequence');
  });

  it("sends the payer's questionnaire as answered as a QuestionnaireResponse in the Claim's supportingInfo", () => {
    const bundle = parsed(
      writeSubmitBundle(remicadeExchange({ questionnaire: answeredQuestionnaire() }), SENT_AT),
    );
    const [response] = ofType(bundle, 'QuestionnaireResponse');
    expect(response).toMatchObject({
      questionnaire: 'http://payer.example/fhir/Questionnaire/infliximab|3',
      status: 'completed',
      authored: SENT_AT.sentAt.toISOString(),
    });
    const entry = (bundle.entry as Json[]).find((candidate) => candidate.resource === response)!;
    const infos = claimOf(bundle).supportingInfo as Json[];
    expect(infos[infos.length - 1]).toMatchObject({
      sequence: 3,
      valueReference: { reference: entry.fullUrl },
    });
    expect(claimOf(bundle).item[0].informationSequence).toEqual([1, 2, 3]);
  });

  it('never sends a proposed answer nobody confirmed', () => {
    const bundle = writeSubmitBundle(remicadeExchange({ questionnaire: answeredQuestionnaire() }), SENT_AT);
    expect(bundle).toContain('tb_screened_on');
    expect(bundle).not.toContain('steroid_trial');
  });

  it('sends no QuestionnaireResponse when the payer could not give its questionnaire', () => {
    const unavailable = {
      ...answeredQuestionnaire(),
      items: [],
      prefill_failure: 'dtr_unavailable' as const,
    };
    const bundle = parsed(writeSubmitBundle(remicadeExchange({ questionnaire: unavailable }), SENT_AT));
    expect(ofType(bundle, 'QuestionnaireResponse')).toEqual([]);
  });

  it('sends a file sent as evidence as the file itself, in the type its bytes show', () => {
    const pdf = Buffer.from('%PDF-1.4 progress note');
    const exchange = remicadeExchange();
    exchange.request.evidence = [
      {
        title: 'Progress note',
        date_created: '2026-11-01T09:00:00Z',
        asset: {
          document_id: 'doc_note',
          name: 'evidence_asset_1',
          type: 'application/pdf',
          sha256: 'b'.repeat(64),
          size_bytes: pdf.length,
          fileType: 'text/plain',
        },
      },
    ];
    exchange.attachments = { doc_note: pdf.toString('base64') };

    const [note] = ofType(parsed(writeSubmitBundle(exchange, SENT_AT)), 'DocumentReference');

    expect(note!.description).toBe('Progress note');
    expect(note!.content[0].attachment).toMatchObject({
      contentType: 'application/pdf',
      data: pdf.toString('base64'),
    });
  });

  it('marks an expedited request stat and urgent', () => {
    const expedited = claimOf(parsed(writeSubmitBundle(remicadeExchange({ urgency: 'expedited' }), SENT_AT)));
    expect(expedited.priority.coding[0].code).toBe('stat');
    expect(expedited.extension[0].valueCodeableConcept.coding[0].code).toBe('U');
  });

  it('asks for a pharmacy-benefit drug by NDC on a pharmacy claim', () => {
    const exchange = remicadeExchange();
    exchange.request.prescription = { drug_name: 'Ozempic 1 mg pen', quantity: 1 };
    const pharmacy = claimOf(parsed(writeSubmitBundle(exchange, SENT_AT)));
    expect(pharmacy.type.coding[0].code).toBe('pharmacy');
    expect(pharmacy.item[0].productOrService.coding[0]).toEqual({
      system: 'http://hl7.org/fhir/sid/ndc',
      code: '00169413212',
    });
  });

  it('is a PAS request the sandbox payer accepts', () => {
    expect(readPasRequest(writeSubmitBundle(remicadeExchange(), SENT_AT))).toMatchObject({
      claimIdentifier: 'pa_01jq0000000000000000000000',
    });
  });
});

describe('The PAS $inquire and information-answer Bundles', () => {
  it("inquire with a Claim inquiry naming the original request by its one identifier, and the payer's reference", () => {
    const bundle = parsed(writeInquiryBundle(remicadeInquiry({ inquiriesSoFar: 2 }), SENT_AT));
    expect(bundle.meta.profile).toEqual([`${PAS}/StructureDefinition/profile-pas-inquiry-request-bundle`]);
    expect(bundle.identifier.value).toBe('pa_01jq0000000000000000000000-inquiry-3');
    expect(claimOf(bundle)).toMatchObject({
      meta: { profile: [`${PAS}/StructureDefinition/profile-claim-inquiry`] },
      use: 'preauthorization',
      identifier: [
        { system: 'urn:healthcare-access-api:prior-authorization', value: 'pa_01jq0000000000000000000000' },
      ],
      related: [
        { reference: { system: 'urn:healthcare-access-api:payer-reference', value: 'PAYER-REF-0001' } },
      ],
    });
  });

  const addedInfo = (bundle: Json) => {
    const byUrl = new Map<string, Json>(bundle.entry.map((entry: Json) => [entry.fullUrl, entry.resource]));
    return (claimOf(bundle).supportingInfo as Json[])
      .filter((info) =>
        (info.extension as Json[]).some(
          (extension) => extension.url.endsWith('extension-infoChanged') && extension.valueCode === 'added',
        ),
      )
      .map((info) => byUrl.get(info.valueReference.reference)!);
  };

  it('answer with a Claim update related to the original, whose added supporting information holds the answers', () => {
    const bundle = parsed(writeInformationBundle(remicadeInformation(), SENT_AT));
    const claim = claimOf(bundle);
    expect(claim.meta.profile).toEqual([`${PAS}/StructureDefinition/profile-claim-update`]);
    expect(claim.related[0]).toMatchObject({
      claim: { identifier: { value: 'pa_01jq0000000000000000000000' } },
      relationship: { coding: [{ code: 'prior' }] },
    });
    expect(addedInfo(bundle).map((resource) => resource.resourceType)).toEqual(['QuestionnaireResponse']);
    expect(ofType(bundle, 'QuestionnaireResponse')[0]!.item).toEqual([
      { linkId: 'q-tb-screen', answer: [{ valueString: 'Negative QuantiFERON on 2026-09-15.' }] },
    ]);
  });

  it('answer marking as added the evidence that came with the answer, and only that', () => {
    const information = remicadeInformation({ addedEvidence: [1] });
    information.request.evidence.push({
      title: 'TB screen',
      date_created: '2026-11-20T09:00:00Z',
      content: { quantiferon: 'negative' },
    });
    const added = addedInfo(parsed(writeInformationBundle(information, SENT_AT)));
    expect(added.map((resource) => resource.resourceType)).toEqual([
      'DocumentReference',
      'QuestionnaireResponse',
    ]);
    expect(added[0]!.description).toBe('TB screen');
  });

  it('answer each information round with a Bundle, Claim and answers of its own', () => {
    const first = parsed(writeInformationBundle(remicadeInformation(), SENT_AT));
    const second = parsed(writeInformationBundle(remicadeInformation({ round: 2 }), SENT_AT));
    expect(first.identifier.value).toBe('pa_01jq0000000000000000000000-information-1');
    expect(second.identifier.value).toBe('pa_01jq0000000000000000000000-information-2');
    expect(second.id).not.toBe(first.id);
    expect(claimOf(second).id).not.toBe(claimOf(first).id);
    expect(ofType(second, 'QuestionnaireResponse')[0]!.id).not.toBe(
      ofType(first, 'QuestionnaireResponse')[0]!.id,
    );
  });
});
