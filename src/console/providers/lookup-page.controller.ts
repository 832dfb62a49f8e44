import { Get, Inject, Query } from '@nestjs/common';

import { ApiError } from '../../common/errors';
import { ProviderLookupService, RegistryLookupQueryDto } from '../../providers/providers.module';
import { ConsolePages } from '../console-pages';
import { principalOf } from '../console-principal';
import { checkAsTheApiDoes, refusalDetails } from '../forms';
import { LookupAnswer, LookupForm, lookupView } from './lookup-views';
import { ConsolePage, Page } from '../console-page';

const TITLE = 'NPI registry lookup';

/** What the page says when the registry did not answer the question, by the API's code. */
const UNANSWERED: Partial<Record<ApiError['code'], string>> = {
  not_found: 'The NPI registry does not return this NPI.',
  registry_unavailable: 'The NPI registry is unavailable, so nothing was looked up. Try again in a minute.',
};

/**
 * The registry lookup of the Providers section: the API's `GET /providers/lookup` as a page, asking
 * the registry of the mode the person works in. A GET form: an NPI or a prescriber's name is public
 * directory data, not PHI, so it may stand in the address.
 */
@ConsolePages('providers/lookup', 'provider')
export class RegistryLookupPageController {
  constructor(@Inject(ProviderLookupService) private readonly lookups: ProviderLookupService) {}

  @Get()
  async show(@Page() page: ConsolePage, @Query() query: Record<string, unknown>): Promise<void> {
    const principal = principalOf(page.req);
    const form = formOf(query);
    const send = (status: number, answer?: LookupAnswer, refusal?: string) =>
      page.send(
        {
          title: TITLE,
          body: lookupView(form, principal.livemode, answer),
          ...(refusal && { notice: { kind: 'error', text: refusal } }),
        },
        status,
      );
    if (!form.npi && !form.last_name && !form.state) return send(200);

    const checked = await checkAsTheApiDoes(RegistryLookupQueryDto, withoutEmpty(form));
    if (!checked.valid) return send(400, undefined, `Nothing was looked up. ${checked.messages.join('; ')}.`);
    const { npi, last_name: lastName, state } = checked.value;
    try {
      const answer: LookupAnswer = npi
        ? { kind: 'record', record: await this.lookups.byNpi(principal, npi) }
        : {
            kind: 'list',
            list: await this.lookups.byName(principal, lastName!, state!),
            lastName: lastName!,
            state: state!,
          };
      send(200, answer);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const text = UNANSWERED[error.code] ?? `Nothing was looked up. ${refusalDetails(error).join('; ')}.`;
      for (const [name, value] of Object.entries(error.headers)) page.res.setHeader(name, value);
      send(error.httpStatus, undefined, text);
    }
  }
}

/** The query's fields as typed; anything repeated or not text reads as empty. */
function formOf(query: Record<string, unknown>): LookupForm {
  const text = (name: string) => (typeof query[name] === 'string' ? (query[name] as string).trim() : '');
  return { npi: text('npi'), last_name: text('last_name'), state: text('state') };
}

/** Each form sends only its own fields, so an empty one is one the person did not fill. */
function withoutEmpty(form: LookupForm): Partial<LookupForm> {
  return Object.fromEntries(Object.entries(form).filter(([, value]) => value !== ''));
}
