import {
  card,
  definitionList,
  emptyState,
  hiddenFields,
  inputField,
  newestFirstPager,
  pager,
  table,
  tableCard,
} from '../../src/console/views';
import { html } from '../../src/console/views/html';
import { day, moment } from '../../src/console/views/markup';

describe('the console view components', () => {
  it('escape what a person typed in a table cell, and keep markup built by the html tag', () => {
    const markup = table({
      caption: 'People',
      rows: [{ name: '<script>alert(1)</script>' }],
      columns: [
        { heading: 'Name', cell: (row) => row.name },
        { heading: 'Badge', cell: () => html`<span class="badge">ok</span>` },
      ],
    }).markup;

    expect(markup).toContain('<td>&lt;script&gt;alert(1)&lt;/script&gt;</td>');
    expect(markup).toContain('<td><span class="badge">ok</span></td>');
    expect(markup).not.toContain('<script>');
  });

  it('show the empty state instead of a table without rows, and leave out columns set to false', () => {
    const empty = emptyState('Nothing yet.', { announced: true });

    expect(table({ caption: 'Keys', rows: [], columns: [], empty }).markup).toBe(empty.markup);
    const markup = table({
      caption: 'Keys',
      rows: [1],
      columns: [{ heading: 'Shown', cell: String }, false],
    }).markup;
    expect(markup.match(/<th scope="col">/g)).toHaveLength(1);
  });

  it('name each row by its row header column', () => {
    const markup = table({
      caption: 'Drugs',
      rows: ['Ozempic'],
      columns: [{ heading: 'Drug', rowHeader: true, cell: (drug) => drug }],
    }).markup;

    expect(markup).toContain('<th scope="row">Ozempic</th>');
  });

  it('leave out the terms of a definition list whose value is absent, but keep a dash or an empty string', () => {
    const markup = definitionList([
      ['Reason', undefined],
      ['Reference', null],
      ['Payer', '—'],
      ['Note', ''],
    ]).markup;

    expect(markup).not.toContain('Reason');
    expect(markup).not.toContain('Reference');
    expect(markup).toContain('<dt>Payer</dt>');
    expect(markup).toContain('<dt>Note</dt>');
  });

  it('tie a field to its label and hint, and never show a password back', () => {
    const markup = inputField({
      name: 'secret',
      label: 'Secret key',
      type: 'password',
      value: 'typed',
      hint: 'At least 16 characters.',
    }).markup;

    expect(markup).toContain('<label for="secret">Secret key</label>');
    expect(markup).toContain('aria-describedby="secret-hint"');
    expect(markup).not.toContain('typed');
  });

  it('escape hidden field values, which carry filters back to the server', () => {
    expect(hiddenFields({ trail: '"><b>' }).markup).toBe(
      '<input type="hidden" name="trail" value="&quot;&gt;&lt;b&gt;" />',
    );
  });

  it('name a card region by its heading, and render no pager for a single page', () => {
    expect(card({ id: 'status-heading', heading: 'Status', body: html`` }).markup).toMatch(
      /<section class="card" aria-labelledby="status-heading">\s*<h2 id="status-heading">Status<\/h2>/,
    );
    expect(pager('Pages', [undefined, false])).toBe('');
  });

  it('link an older page of a newest-first list back to the newest and on to older entries, each link with its rel', () => {
    const paging = { label: 'Outbox pages', path: '/console/providers/outbox', entries: 'mail' };

    expect(newestFirstPager({ ...paging, cursor: 'c2', nextCursor: 'c3' }).toString()).toBe(
      '<nav class="pager" aria-label="Outbox pages">' +
        '<a href="/console/providers/outbox" rel="prev">Newest mail</a>' +
        '<a href="/console/providers/outbox?cursor=c3" rel="next">Older mail</a></nav>',
    );
    expect(newestFirstPager({ ...paging, nextCursor: null })).toBe('');
  });

  it('hold one table in a card named by its heading, with what follows the table', () => {
    const markup = tableCard({
      id: 'keys-heading',
      heading: 'Keys',
      caption: 'API keys',
      rows: [1],
      columns: [{ heading: 'Key', cell: String }],
      after: html`<p>More keys</p>`,
    }).markup;

    expect(markup).toMatch(
      /^<section class="card" aria-labelledby="keys-heading">\s*<h2 id="keys-heading">Keys<\/h2>/,
    );
    expect(markup).toMatch(/<caption>\s*API keys\s*<\/caption>/);
    expect(markup).toMatch(/<\/table> <p>More keys<\/p>\s*<\/section>$/);
  });

  it('show a moment to the minute and a day by its date, both in UTC with the exact instant for machines', () => {
    const stored = '2026-11-27T23:45:12.345+01:00';
    expect(moment(stored).markup).toBe(
      '<time datetime="2026-11-27T22:45:12.345Z">2026-11-27 22:45 UTC</time>',
    );
    expect(day(stored).markup).toBe('<time datetime="2026-11-27T22:45:12.345Z">2026-11-27</time>');
  });
});
