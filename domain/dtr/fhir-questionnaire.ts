/**
 * The few FHIR R4 shapes the questionnaire's functions read and write (a payer's Questionnaire, its
 * ValueSets, DTR's QuestionnaireResponse); every other element passes unread.
 */
import type { EnableWhenCondition } from './questionnaire';

export interface FhirCoding {
  system?: string;
  version?: string;
  code?: string;
  display?: string;
}

export interface FhirReference {
  reference?: string;
  type?: string;
  display?: string;
}

export interface FhirExtension {
  url: string;
  [value: string]: unknown;
}

export interface FhirEnableWhen {
  question: string;
  operator: EnableWhenCondition['operator'];
  answerBoolean?: boolean;
  answerDecimal?: number;
  answerInteger?: number;
  answerDate?: string;
  answerDateTime?: string;
  answerTime?: string;
  answerString?: string;
  answerCoding?: FhirCoding;
  answerQuantity?: { value?: number; unit?: string; code?: string };
}

export interface FhirAnswerOption {
  valueCoding?: FhirCoding;
  valueString?: string;
  valueInteger?: number;
  valueDate?: string;
  valueTime?: string;
}

export interface FhirQuestionnaireItem {
  linkId: string;
  text?: string;
  type: string;
  required?: boolean;
  repeats?: boolean;
  readOnly?: boolean;
  answerOption?: FhirAnswerOption[];
  answerValueSet?: string;
  enableWhen?: FhirEnableWhen[];
  enableBehavior?: 'all' | 'any';
  extension?: FhirExtension[];
  item?: FhirQuestionnaireItem[];
}

export interface FhirValueSetConcept {
  system?: string;
  version?: string;
  code?: string;
  display?: string;
  contains?: FhirValueSetConcept[];
}

export interface FhirValueSet {
  resourceType: 'ValueSet';
  id?: string;
  url?: string;
  version?: string;
  expansion?: { contains?: FhirValueSetConcept[] };
  compose?: {
    include?: { system?: string; version?: string; concept?: { code: string; display?: string }[] }[];
  };
}

export interface FhirQuestionnaire {
  resourceType: 'Questionnaire';
  id?: string;
  url?: string;
  version?: string;
  title?: string;
  meta?: { profile?: string[] };
  text?: { status: string; div: string };
  derivedFrom?: string[];
  extension?: FhirExtension[];
  contained?: { resourceType: string; [element: string]: unknown }[];
  item?: FhirQuestionnaireItem[];
}

export interface FhirQuestionnaireResponseAnswer {
  [value: string]: unknown;
  extension: FhirExtension[];
  item?: FhirQuestionnaireResponseItem[];
}

export interface FhirQuestionnaireResponseItem {
  linkId: string;
  text?: string;
  answer?: FhirQuestionnaireResponseAnswer[];
  item?: FhirQuestionnaireResponseItem[];
}

export interface FhirQuestionnaireResponse {
  resourceType: 'QuestionnaireResponse';
  meta: { profile: string[] };
  extension: FhirExtension[];
  questionnaire: string;
  status: 'in-progress' | 'completed';
  subject: FhirReference;
  authored: string;
  author?: FhirReference;
  item: FhirQuestionnaireResponseItem[];
}
