import type { JsonObject } from '../support/case-journeys';
import { ClearinghouseServer } from '../support/clearinghouse-server';
import type { ClearinghouseReply, ClearinghouseRequest } from '../support/clearinghouse-server';
import { ENDLESS_DEFINE } from './endless-cql';
import { infernoFixture } from './inferno-fixtures';

type Json = JsonObject;

const FHIR_JSON = { 'Content-Type': 'application/fhir+json' };

/**
 * How the loopback service answers `$next-question`: as Inferno's dinner sequence goes; first the
 * patient's names alone (which the CQL answers), then the sequence; a new name question every round,
 * never settling; as the sequence goes, its Questionnaire padded past 1 MB (`large`); or failing.
 */
export type NextQuestionBehaviour =
  'serve' | 'names-first' | 'endless' | 'large' | 'fail' | 'hang' | 'oversized' | 'no-questionnaire';

/**
 * A payer's DTR service serving Inferno's adaptive dinner order (test/fixtures/dtr/inferno/) over real
 * HTTP: `$questionnaire-package` answers the package (its Questionnaire without items, its DTRTest
 * library), `$next-question` the kit's own sequence. The first questions (name, location, what for
 * dinner); once the dinner is chosen, its follow-up questions; asked again once those were served, it
 * says `completed`. Each answer is a QuestionnaireResponse, or, when `wrapInParameters`, the
 * Parameters' `return` holding it.
 */
export class LoopbackAdaptiveDtr {
  behaviour: NextQuestionBehaviour = 'serve';
  /** `hang`: `$questionnaire-package` never answers; `endless-cql`: its library runs for minutes. */
  packageBehaviour: 'serve' | 'hang' | 'endless-cql' = 'serve';
  wrapInParameters = false;
  /** False: the questions served carry no expressions, so the payer's CQL answers none of them. */
  servesExpressions = true;
  /**
   * Fails (500), once, the first `$next-question` call sent with what this matches as served so far (its
   * link ids): a failure aimed at one case's round, whatever other cases' retries ask meanwhile.
   */
  failOnceAfterServing?: (linkIds: string[]) => boolean;
  private readonly server = new ClearinghouseServer((request) => this.answer(request));

  get requests(): ClearinghouseRequest[] {
    return this.server.requests;
  }

  /** The QuestionnaireResponses `$next-question` was sent, in order. */
  nextQuestionRequests(): Json[] {
    return this.requests
      .filter((request) => request.url.endsWith('/Questionnaire/$next-question'))
      .map((request) => (JSON.parse(request.body) as Json).parameter[0].resource as Json);
  }

  /** The FHIR base to configure as the `questionnaire` connector's url. */
  async start(): Promise<string> {
    return `${new URL(await this.server.start()).origin}/fhir`;
  }

  stop(): Promise<void> {
    return this.server.stop();
  }

  /** Fails (500) every call left hanging so far. */
  failHanging(): void {
    this.server.release({ status: 500, headers: FHIR_JSON, body: '{}' });
  }

  private answer(request: ClearinghouseRequest): ClearinghouseReply {
    if (request.url.endsWith('/Questionnaire/$questionnaire-package'))
      return this.packageBehaviour === 'hang'
        ? 'hang'
        : this.reply({
            resourceType: 'Parameters',
            parameter: [{ name: 'PackageBundle', resource: this.package() }],
          });
    if (!request.url.endsWith('/Questionnaire/$next-question'))
      return { status: 404, headers: FHIR_JSON, body: '{}' };
    if (this.behaviour === 'hang') return 'hang';
    if (this.behaviour === 'fail') return { status: 500, headers: FHIR_JSON, body: '{}' };
    if (this.behaviour === 'oversized')
      return { status: 200, headers: FHIR_JSON, body: `{"padding":"${'x'.repeat(5 * 1024 * 1024)}"}` };
    const asked = (JSON.parse(request.body) as Json).parameter[0].resource as Json;
    if (this.failOnceAfterServing?.(linkIdsOf(asked.contained?.[0]?.item ?? []))) {
      this.failOnceAfterServing = undefined;
      return { status: 500, headers: FHIR_JSON, body: '{}' };
    }
    if (this.behaviour === 'no-questionnaire')
      return this.reply({ resourceType: 'QuestionnaireResponse', status: 'in-progress' });
    const { questionnaire: sequenced, completed } = this.nextFor(asked);
    const questionnaire = this.servesExpressions ? sequenced : withoutExpressions(sequenced);
    if (this.behaviour === 'large') questionnaire.description = 'x'.repeat(1536 * 1024);
    const response = {
      resourceType: 'QuestionnaireResponse',
      status: completed ? 'completed' : 'in-progress',
      questionnaire: `#${questionnaire.id}`,
      contained: [questionnaire],
      item: asked.item ?? [],
    };
    return this.reply(
      this.wrapInParameters
        ? { resourceType: 'Parameters', parameter: [{ name: 'return', resource: response }] }
        : response,
    );
  }

  /** Inferno's adaptive dinner package; with `endless-cql`, its DTRTest library also defines Endless. */
  private package(): Json {
    const bundle = infernoFixture<Json>('questionnaire_dinner_order_adaptive.json');
    if (this.packageBehaviour !== 'endless-cql') return bundle;
    const library = (bundle.entry as Json[]).find((entry) => entry.resource.resourceType === 'Library')!
      .resource as Json;
    const content = library.content as Json[];
    const json = content.find((attachment) => attachment.contentType === 'application/elm+json')!;
    const elm = JSON.parse(Buffer.from(json.data as string, 'base64').toString('utf8')) as Json;
    elm.library.statements.def.push(ENDLESS_DEFINE);
    json.data = Buffer.from(JSON.stringify(elm)).toString('base64');
    return bundle;
  }

  private nextFor(asked: Json): { questionnaire: Json; completed: boolean } {
    const served = ((asked.contained ?? [])[0] ?? {}) as Json;
    const names = () => {
      const initial = infernoFixture<Json>('dinner_order_adaptive_next_question_initial.json');
      return { ...initial, item: initial.item.filter((item: Json) => item.linkId === 'PBD') };
    };
    if (this.behaviour === 'names-first' && linkIdsOf(served.item ?? []).length === 0)
      return { questionnaire: names(), completed: false };
    if (this.behaviour === 'endless') {
      const questionnaire = names();
      const rounds = (served.item ?? []).length;
      questionnaire.item = Array.from({ length: rounds + 1 }, (_, round) => ({
        ...questionnaire.item[0],
        linkId: `PBD-${round}`,
        item: [{ ...questionnaire.item[0].item[0], linkId: `PBD-${round}.1` }],
      }));
      return { questionnaire, completed: false };
    }
    return nextInSequence(asked);
  }

  private reply(body: Json): ClearinghouseReply {
    return { status: 200, headers: FHIR_JSON, body: JSON.stringify(body) };
  }
}

const FOLLOW_UPS: Record<string, { file: string; item: string }> = {
  Hamburger: { file: 'dinner_order_adaptive_next_question_hamburger.json', item: '3.2.a' },
  'Bean Burrito': { file: 'dinner_order_adaptive_next_question_burrito.json', item: '3.2.b' },
};

/** Inferno's sequence: the first questions, then the chosen dinner's, then done. */
function nextInSequence(asked: Json): { questionnaire: Json; completed: boolean } {
  const dinner = answerOf(asked.item ?? [], '3.1')?.valueCoding?.code as string | undefined;
  const followUp = dinner ? FOLLOW_UPS[dinner] : undefined;
  if (!followUp)
    return {
      questionnaire: infernoFixture('dinner_order_adaptive_next_question_initial.json'),
      completed: false,
    };
  const served = (asked.contained ?? [])[0] as Json | undefined;
  return {
    questionnaire: infernoFixture(followUp.file),
    completed: linkIdsOf(served?.item ?? []).includes(followUp.item),
  };
}

function withoutExpressions(questionnaire: Json): Json {
  const stripped = (items: Json[]): Json[] =>
    items.map(({ extension: _extension, item, ...rest }) => ({
      ...rest,
      ...(item && { item: stripped(item) }),
    }));
  return { ...questionnaire, item: stripped(questionnaire.item ?? []) };
}

function answerOf(items: Json[], linkId: string): Json | undefined {
  for (const item of items) {
    if (item.linkId === linkId) return item.answer?.[0];
    const nested = answerOf(item.item ?? [], linkId);
    if (nested) return nested;
  }
  return undefined;
}

function linkIdsOf(items: Json[]): string[] {
  return items.flatMap((item) => [item.linkId as string, ...linkIdsOf(item.item ?? [])]);
}
