import type { ProviderRegistryRecord } from '../../../domain/providers/registry-record';
import type { ListObject } from '../../common/envelope';
import { badge, card, definitionList, emptyState, filtersForm, inputField, tableCard } from '../views';
import { Html, html } from '../views/html';

export const LOOKUP_PATH = '/console/providers/lookup';

/** The lookup's two questions as the person typed them, so a refused one comes back as it was. */
export interface LookupForm {
  npi: string;
  last_name: string;
  state: string;
}

export type LookupAnswer =
  | { kind: 'record'; record: ProviderRegistryRecord }
  | { kind: 'list'; list: ListObject<ProviderRegistryRecord>; lastName: string; state: string };

/** The two ways to ask the registry, then its answer when there is one. */
export function lookupView(form: LookupForm, livemode: boolean, answer?: LookupAnswer): Html {
  const registry = livemode ? 'the NPPES NPI Registry' : 'the sandbox registry (test mode)';
  return html`<p>
      Looks a prescriber up in ${registry}. Its answers are public directory data, kept for a day.
    </p>
    ${card({
      heading: 'By NPI',
      id: 'by-npi-heading',
      narrow: true,
      body: filtersForm({
        action: LOOKUP_PATH,
        fields: [
          inputField({
            name: 'npi',
            label: 'NPI',
            value: form.npi,
            hint: 'Ten digits.',
            attributes: html`inputmode="numeric" maxlength="10" autocomplete="off" required`,
          }),
        ],
        button: 'Look up',
      }),
    })}
    ${card({
      heading: 'By last name and state',
      id: 'by-name-heading',
      narrow: true,
      body: filtersForm({
        action: LOOKUP_PATH,
        fields: [
          inputField({
            name: 'last_name',
            label: 'Last name',
            value: form.last_name,
            hint: 'The whole last name of an individual prescriber.',
            attributes: html`maxlength="60" autocomplete="off" required`,
          }),
          inputField({
            name: 'state',
            label: 'State',
            value: form.state,
            hint: 'Two letters, such as OR.',
            attributes: html`maxlength="2" autocomplete="off" required`,
          }),
        ],
        button: 'Search',
      }),
    })}
    ${answer ? answerView(answer) : ''}`;
}

function answerView(answer: LookupAnswer): Html {
  if (answer.kind === 'record') {
    return card({
      heading: `NPI ${answer.record.npi}`,
      id: 'record-heading',
      body: recordFacts(answer.record),
    });
  }
  const { list, lastName, state } = answer;
  const more = list.has_more
    ? html`<p>The registry holds more than ${list.data.length}; look one up by NPI to be sure.</p>`
    : '';
  return tableCard({
    heading: 'Registry records',
    id: 'records-heading',
    caption: `Individuals named ${lastName.toUpperCase()} practising in ${state.toUpperCase()}`,
    rows: list.data,
    empty: emptyState('The registry lists no individual of this last name practising in this state.', {
      announced: true,
    }),
    columns: [
      {
        heading: 'NPI',
        cell: (record) => html`<a href="${LOOKUP_PATH}?npi=${record.npi}">${record.npi}</a>`,
      },
      { heading: 'Name', cell: (record) => record.name, rowHeader: true },
      { heading: 'Credential', cell: (record) => record.credential ?? '—' },
      { heading: 'Taxonomy', cell: (record) => record.taxonomy?.description ?? '—' },
      {
        heading: 'Practice location',
        cell: (record) =>
          record.practice_address ? `${record.practice_address.city}, ${record.practice_address.state}` : '—',
      },
      { heading: 'NPI status', cell: activeBadge },
    ],
    after: more,
  });
}

function recordFacts(record: ProviderRegistryRecord): Html {
  const address = record.practice_address;
  return definitionList([
    ['Name', record.name],
    ['Type', record.type === 'individual' ? 'Individual (NPI-1)' : 'Organization (NPI-2)'],
    ['Credential', record.credential ?? '—'],
    [
      'Taxonomy',
      record.taxonomy ? html`${record.taxonomy.description} (<code>${record.taxonomy.code}</code>)` : '—',
    ],
    [
      'Practice location',
      address
        ? html`${address.line1}${address.line2 ? html`<br />${address.line2}` : ''}<br />${address.city},
            ${address.state} ${address.postal_code}`
        : '—',
    ],
    ['Practice phone', address?.phone ?? null],
    ['NPI status', activeBadge(record)],
  ]);
}

function activeBadge(record: ProviderRegistryRecord): Html {
  return record.active ? badge('active', 'ok') : badge('deactivated', 'bad');
}
