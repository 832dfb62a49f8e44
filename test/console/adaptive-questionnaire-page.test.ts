import type { PriorAuthorizationCase } from '../../domain/cases/prior-authorization';
import { PRIOR_AUTHORIZATION_CONSOLE } from '../../src/cases/types/prior-authorization/prior-authorization.console';
import { AdaptivePayer, answerQuestionnaire, preparedAdaptiveCase } from '../support/adaptive-payer';
import { consoleGet, consolePost, signedInPerson } from '../support/console-cases';
import { ConsoleBrowser, cookiesFrom } from '../support/console-session';
import { bearer, startTestApp, TestApp } from '../support/test-app';
import { TestWorker } from '../support/workers';

const PAGES = '/console/prior-authorizations';
const HAMBURGER = { system: null, code: 'Hamburger', display: null };

/**
 * The case page of a live prior authorization whose payer's questionnaire is adaptive (a loopback DTR
 * service playing Inferno's dinner order): a reviewer reads why approval waits when nothing is left for
 * a person, and what a failed `$next-question` round means, never that the payer's CQL did not run
 * unless it did.
 */
describe("the console's case page for a payer's adaptive questionnaire", () => {
  let testApp: TestApp;
  let worker: TestWorker;
  let payer: AdaptivePayer;
  let providerKey: string;
  let reviewer: ConsoleBrowser;

  beforeAll(async () => {
    testApp = await startTestApp({
      // The CRD connector needs a public address to publish its keys at; the loopback CRD service never fetches them.
      PUBLIC_API_URL: 'https://api.clinic.example',
      // Short, for the payer's endless CQL: the limit counts from when a ready thread takes the task,
      // and the packages of the other tests evaluate in milliseconds.
      CLINICAL_EVALUATION_TIMEOUT_MS: '2000',
    });
    worker = await testApp.startWorker();
    const account = await testApp.createAccount('Clinic Adaptive');
    const keys = await testApp.createLiveKeys(account.accountId);
    providerKey = keys.provider;
    payer = new AdaptivePayer();
    await payer.connect(testApp, keys.admin);
    const person = await signedInPerson(testApp, account.accountId, ['reviewer'], 'Dr. Ada Reviewer');
    const live = await consolePost(testApp, person, '/console/mode', { mode: 'live', return_to: PAGES });
    reviewer = { ...person, cookie: cookiesFrom(live.headers['set-cookie'], person.cookie) };
  });
  afterAll(async () => {
    await worker.stop();
    await testApp.close();
    await payer.stop();
  });
  beforeEach(() => {
    payer.dtr.behaviour = 'serve';
    payer.dtr.servesExpressions = true;
    payer.dtr.packageBehaviour = 'serve';
  });

  const preparedCase = () => preparedAdaptiveCase(testApp, providerKey, 'Rosa');
  const answered = (id: string, answers: { link_id: string; value: unknown }[]) =>
    answerQuestionnaire(testApp, providerKey, id, answers);

  /** The notices of the case page's questionnaire section, as a person reads them. */
  async function questionnaireNotices(id: string): Promise<string[]> {
    return noticesIn((await consoleGet(testApp, reviewer, `${PAGES}/${id}`)).text);
  }

  /**
   * The notices the case page shows of the case as it is, but for a questionnaire without `adaptive`,
   * as on a case whose workflow closed or continued as new before the flag was added.
   */
  async function noticesWithoutAdaptiveFlag(id: string): Promise<string[]> {
    const read = await testApp.http().get(`/prior-authorization/${id}`).set(bearer(providerKey));
    const pa = read.body.data as PriorAuthorizationCase;
    const { adaptive: _adaptive, ...unflagged } = pa.questionnaire!;
    return noticesIn(
      PRIOR_AUTHORIZATION_CONSOLE.view.reviewerSections!({ ...pa, questionnaire: unflagged }).markup,
    );
  }

  function noticesIn(page: string): string[] {
    const section =
      /<section[^>]*aria-labelledby="payer-questionnaire-heading"[^>]*>([\s\S]*?)<\/section>/.exec(page)![1]!;
    return [...section.matchAll(/<p class="notice notice-error"[^>]*>([\s\S]*?)<\/p>/g)].map((match) =>
      match[1]!
        .replace(/<[^>]*>/g, '')
        .replace(/&#39;/g, "'")
        .replace(/&quot;/g, '"')
        .replace(/&amp;/g, '&')
        .replace(/\s+/g, ' ')
        .trim(),
    );
  }

  describe("when the payer's questionnaire service answers or fails its rounds", () => {
    it('says the payer has more questions to ask while nothing is left for a person and the service has not said it is complete', async () => {
      const id = await preparedCase();
      expect(
        await answered(id, [
          { link_id: 'LOC.1', value: 'Ward 4' },
          { link_id: '3.1', value: HAMBURGER },
        ]),
      ).toMatchObject({ adaptive: true, status: 'in_progress', pending: [], prefill_failure: null });

      expect(await questionnaireNotices(id)).toEqual([
        'The payer has more questions to ask: its questionnaire service has not said the questionnaire is complete, so approval waits. They appear here once it sends them; it is asked again with each answer.',
      ]);
    });

    it("says the payer's questionnaire service could not be reached for its next questions, that the next answer asks it again and the case may on its own, and how to retry at once, when a round failed with nothing pending", async () => {
      const id = await preparedCase();
      payer.dtr.behaviour = 'fail';
      expect(
        await answered(id, [
          { link_id: 'LOC.1', value: 'Ward 4' },
          { link_id: '3.1', value: HAMBURGER },
        ]),
      ).toMatchObject({ status: 'in_progress', pending: [], prefill_failure: 'dtr_unavailable' });

      expect(await questionnaireNotices(id)).toEqual([
        "The payer's questionnaire service could not be reached for its next questions (dtr_unavailable), so some may not be shown yet. Approval waits until it says the questionnaire is complete. The next answer asks it again, and the case may ask it again on its own after a wait; to retry at once without changing anything, save an answer again as it stands.",
      ]);
    });

    it("names the failed round, not the payer's CQL, when a round failed with a required item still pending", async () => {
      const id = await preparedCase();
      payer.dtr.behaviour = 'fail';
      expect(await answered(id, [{ link_id: '3.1', value: HAMBURGER }])).toMatchObject({
        pending: ['LOC.1'],
        prefill_failure: 'dtr_unavailable',
      });

      const notices = await questionnaireNotices(id);
      expect(notices[0]).toMatch(
        /^The payer's questionnaire service could not be reached for its next questions/,
      );
      expect(notices[1]).toBe('Approval waits for 1 required item(s): LOC.1.');
      expect(notices.join(' ')).not.toContain('CQL');
    });

    it("names the failed round, not the payer's CQL, when a round failed and no answer is the CQL's", async () => {
      // Served questions that no expression answers leave nothing on the page that tells an adaptive questionnaire apart.
      payer.dtr.servesExpressions = false;
      const id = await preparedCase();
      payer.dtr.behaviour = 'fail';
      expect(await answered(id, [{ link_id: 'LOC.1', value: 'Ward 4' }])).toMatchObject({
        adaptive: true,
        pending: ['PBD.1', 'PBD.2', '3.1'],
        prefill_failure: 'dtr_unavailable',
      });

      const notices = await questionnaireNotices(id);
      expect(notices[0]).toMatch(
        /^The payer's questionnaire service could not be reached for its next questions/,
      );
      expect(notices.join(' ')).not.toContain('CQL');
    });

    it('says the payer has more questions to ask on a case whose questionnaire does not say it is adaptive', async () => {
      const id = await preparedCase();
      await answered(id, [
        { link_id: 'LOC.1', value: 'Ward 4' },
        { link_id: '3.1', value: HAMBURGER },
      ]);

      expect(await noticesWithoutAdaptiveFlag(id)).toEqual([
        'The payer has more questions to ask: its questionnaire service has not said the questionnaire is complete, so approval waits. They appear here once it sends them; it is asked again with each answer.',
      ]);
    });

    it("names a failed round, not the payer's CQL, on a case whose questionnaire does not say it is adaptive", async () => {
      const id = await preparedCase();
      payer.dtr.behaviour = 'fail';
      await answered(id, [{ link_id: '3.1', value: HAMBURGER }]);

      const notices = await noticesWithoutAdaptiveFlag(id);
      expect(notices[0]).toMatch(
        /^The payer's questionnaire service could not be reached for its next questions \(dtr_unavailable\)/,
      );
      expect(notices.join(' ')).not.toContain('CQL');
    });
  });

  describe("when the payer's CQL runs past the clinical evaluation time limit", () => {
    it("names the payer's CQL, cql_timed_out, not its questionnaire service, in the case and on its page, when the CQL of the round that served the questions ran past its time limit", async () => {
      payer.dtr.packageBehaviour = 'endless-cql';
      const id = await preparedCase();

      const read = await testApp.http().get(`/prior-authorization/${id}`).set(bearer(providerKey));
      const pa = read.body.data as PriorAuthorizationCase;
      expect(pa.questionnaire).toMatchObject({ adaptive: true, prefill_failure: 'cql_timed_out' });
      // The service served its first questions; the CQL answered none of them.
      expect(pa.questionnaire!.items.find((item) => item.link_id === 'PBD.1')).toMatchObject({
        answer: null,
      });
      expect(pa.questionnaire!.items.map((item) => item.link_id)).toContain('3.1');
      expect(pa.status_history.at(-1)!.reason).toMatch(
        /The payer's CQL did not prefill its questionnaire \(cql_timed_out\)/,
      );
      const notices = await questionnaireNotices(id);
      expect(notices[0]).toBe(
        "The payer's CQL did not prefill the questions its service last served (cql_timed_out): they wait for a person.",
      );
      expect(notices.join(' ')).not.toContain('questionnaire service');
    });
  });
});
