import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  readEligibilityInquiry,
  writeEligibilityInquiry,
} from '../../infrastructure/connectors/x12/eligibility-inquiry';
import { X12SyntaxError, X12ValueError } from '../../infrastructure/connectors/x12/interchange';
import { DEPENDENT_INQUIRY, ENVELOPE, SUBSCRIBER_INQUIRY } from '../fixtures/x12/examples';

const fixture = (name: string) => readFileSync(join(__dirname, '../fixtures/x12', name), 'utf8');
const segmentsOf = (x12: string) => x12.split('~').filter(Boolean);

describe('the 270 eligibility inquiry', () => {
  it('reads back as the inquiry and envelope it was written from, for a subscriber', () => {
    const written = writeEligibilityInquiry(SUBSCRIBER_INQUIRY, ENVELOPE);
    const { inquiry, envelope } = readEligibilityInquiry(written);
    expect(envelope).toEqual(ENVELOPE);
    expect(inquiry).toEqual({
      ...SUBSCRIBER_INQUIRY,
      payer: { ...SUBSCRIBER_INQUIRY.payer, name: 'BLUE HORIZON HEALTH' },
      provider: { npi: '1234567893', organizationName: 'RIVERSIDE FAMILY PRACTICE' },
      subscriber: { ...SUBSCRIBER_INQUIRY.subscriber, firstName: 'JORDAN', lastName: 'TESTPERSON' },
    });
  });

  it('lays out a subscriber inquiry as the implementation guide does', () => {
    expect(segmentsOf(writeEligibilityInquiry(SUBSCRIBER_INQUIRY, ENVELOPE))).toEqual([
      'ISA*00*          *00*          *ZZ*HEALTHACCESS   *ZZ*CLEARINGHOUSE  *261123*0930*^*00501*000000905*0*T*:',
      'GS*HS*HEALTHACCESS*CLEARINGHOUSE*20261123*0930*905*X*005010X279A1',
      'ST*270*0001*005010X279A1',
      'BHT*0022*13*BV01JD4Z8K2M*20261123*0930',
      'HL*1**20*1',
      'NM1*PR*2*BLUE HORIZON HEALTH*****PI*99999',
      'HL*2*1*21*1',
      'NM1*1P*2*RIVERSIDE FAMILY PRACTICE*****XX*1234567893',
      'HL*3*2*22*0',
      'TRN*1*BV01JD4Z8K2M*9HEALTHACC',
      'NM1*IL*1*TESTPERSON*JORDAN****MI*ZZT900000001',
      'REF*6P*GRP0001',
      'DMG*D8*19800412*F',
      'DTP*291*D8*20261123',
      'EQ*30',
      'EQ*88',
      'SE*15*0001',
      'GE*1*905',
      'IEA*1*000000905',
    ]);
  });

  it("names the provider's taxonomy in a PRV segment right after the provider, when the case knows it", () => {
    const inquiry = {
      ...DEPENDENT_INQUIRY,
      provider: { ...DEPENDENT_INQUIRY.provider, taxonomyCode: '207Q00000X' },
    };
    const segments = segmentsOf(writeEligibilityInquiry(inquiry, ENVELOPE));
    const provider = segments.indexOf('NM1*1P*1*CLINICIAN*AVERY****XX*1234567893');
    expect(segments[provider + 1]).toBe('PRV*PE*PXC*207Q00000X');
  });

  it('puts the trace, date of service and service types in the dependent loop when the patient is a dependent', () => {
    const segments = segmentsOf(writeEligibilityInquiry(DEPENDENT_INQUIRY, ENVELOPE));
    const dependentLoop = segments.slice(segments.indexOf('HL*4*3*23*0'));
    expect(segments).toContain('HL*3*2*22*1');
    expect(segments).toContain('NM1*1P*1*CLINICIAN*AVERY****XX*1234567893');
    expect(dependentLoop.slice(0, 9)).toEqual([
      'HL*4*3*23*0',
      'TRN*1*BV01JD4Z8K2N*9HEALTHACC',
      'NM1*03*1*TESTPERSON*SAM',
      'DMG*D8*20120630*M',
      'INS*N*19',
      'DTP*291*D8*20261123',
      'EQ*30',
      'EQ*88',
      'EQ*90',
    ]);
    expect(readEligibilityInquiry(segments.join('~') + '~').inquiry.dependent).toEqual({
      firstName: 'SAM',
      lastName: 'TESTPERSON',
      dateOfBirth: '2012-06-30',
      gender: 'male',
      relationship: 'child',
    });
  });

  it('writes names in upper case without accents, as payers match them', () => {
    const written = writeEligibilityInquiry(
      { ...SUBSCRIBER_INQUIRY, subscriber: { ...SUBSCRIBER_INQUIRY.subscriber, lastName: "Núñez-O'Brien" } },
      ENVELOPE,
    );
    expect(written).toContain("NM1*IL*1*NUNEZ-O'BRIEN*JORDAN");
  });

  it.each([
    ['*', "the subscriber's last name"],
    ['~', "the subscriber's last name"],
    ['^', "the subscriber's last name"],
    [':', "the subscriber's last name"],
  ])(
    'refuses a name containing the delimiter %s, naming the field and never the value',
    (delimiter, field) => {
      const inquiry = {
        ...SUBSCRIBER_INQUIRY,
        subscriber: { ...SUBSCRIBER_INQUIRY.subscriber, lastName: `Secretname${delimiter}Smith` },
      };
      const attempt = () => writeEligibilityInquiry(inquiry, ENVELOPE);
      expect(attempt).toThrow(X12ValueError);
      expect(attempt).toThrow(field);
      expect(attempt).not.toThrow(/SECRETNAME|Secretname/);
    },
  );

  it('refuses a provider NPI that is not ten digits', () => {
    const inquiry = { ...SUBSCRIBER_INQUIRY, provider: { npi: '12345', organizationName: 'Clinic' } };
    expect(() => writeEligibilityInquiry(inquiry, ENVELOPE)).toThrow('the provider NPI');
  });

  it('refuses a birth date that is not a calendar date', () => {
    const inquiry = {
      ...SUBSCRIBER_INQUIRY,
      subscriber: { ...SUBSCRIBER_INQUIRY.subscriber, dateOfBirth: '1980-02-30' },
    };
    expect(() => writeEligibilityInquiry(inquiry, ENVELOPE)).toThrow("the subscriber's date of birth");
  });

  it('refuses an inquiry that asks about no service type', () => {
    expect(() => writeEligibilityInquiry({ ...SUBSCRIBER_INQUIRY, serviceTypeCodes: [] }, ENVELOPE)).toThrow(
      'the service type codes',
    );
  });

  it('reads an inquiry written with other delimiters', () => {
    const written = writeEligibilityInquiry(SUBSCRIBER_INQUIRY, ENVELOPE)
      .replace(/\*/g, '|')
      .replace(/\^/g, '!')
      .replace(/:/g, '>')
      .replace(/~/g, '\n');
    expect(readEligibilityInquiry(written).inquiry.subscriber.memberId).toBe('ZZT900000001');
  });

  it("reads LinuxForHealth's public subscriber 270", () => {
    const { inquiry, envelope } = readEligibilityInquiry(
      fixture('linuxforhealth-subscriber-health-benefit-check.270'),
    );
    expect(envelope).toMatchObject({
      senderId: '000000005',
      receiverId: '12345',
      controlNumber: 907,
      usage: 'test',
    });
    expect(inquiry).toEqual({
      traceNumber: '93175-012547',
      payer: { id: '842610001', name: 'ABC COMPANY' },
      provider: { npi: '2000035', organizationName: 'BONE AND JOINT CLINIC' },
      subscriber: {
        firstName: 'ROBERT',
        lastName: 'SMITH',
        dateOfBirth: '1943-05-19',
        memberId: '11122333301',
      },
      serviceTypeCodes: ['30'],
      dateOfService: '2006-05-01',
    });
  });

  it("reads LinuxForHealth's public dependent 270, whose subscriber is named by member id alone", () => {
    const { inquiry } = readEligibilityInquiry(fixture('linuxforhealth-dependent-health-benefit-check.270'));
    expect(inquiry.subscriber).toEqual({
      firstName: '',
      lastName: '',
      dateOfBirth: '',
      memberId: '11122333301',
    });
    expect(inquiry.dependent).toEqual({
      firstName: 'MARY',
      lastName: 'SMITH',
      dateOfBirth: '1978-10-14',
      relationship: 'other',
    });
    expect(inquiry.provider).toEqual({ npi: '2000034', lastName: 'JONES', firstName: 'MARCUS' });
  });

  it('refuses a 271 offered as an inquiry', () => {
    expect(() =>
      readEligibilityInquiry(fixture('linuxforhealth-subscriber-health-benefit-check.271')),
    ).toThrow(X12SyntaxError);
  });
});
