import { Html, html } from './html';
import { card, CardProps } from './card';

export type Cell = Html | string | number;

export interface Column<Row> {
  heading: string;
  cell(row: Row, index: number): Cell;
  /** The column that names each row (a drug, a question), so screen readers announce it with every cell. */
  rowHeader?: boolean;
}

export interface TableProps<Row> {
  /** Every table has a caption: it is the table's accessible name. */
  caption: Html | string;
  /** `false` leaves a column out, so a column shown to some sections only stays in one list. */
  columns: ReadonlyArray<Column<Row> | false>;
  rows: readonly Row[];
  /** Shown instead of the table when there are no rows; without it an empty table is shown. */
  empty?: Html;
}

/**
 * The console's one table markup: a caption, column headers with their scope, and escaped cells, so
 * every list reads the same with a screen reader and no page builds its own.
 */
export function table<Row>({ caption, columns, rows, empty }: TableProps<Row>): Html {
  if (rows.length === 0 && empty) return empty;
  const shown = columns.filter((column): column is Column<Row> => column !== false);
  return html`<table>
    <caption>
      ${caption}
    </caption>
    <thead>
      <tr>
        ${shown.map((column) => html`<th scope="col">${column.heading}</th>`)}
      </tr>
    </thead>
    <tbody>
      ${rows.map(
        (row, index) =>
          html`<tr>
            ${shown.map((column) =>
              column.rowHeader
                ? html`<th scope="row">${column.cell(row, index)}</th>`
                : html`<td>${column.cell(row, index)}</td>`,
            )}
          </tr>`,
      )}
    </tbody>
  </table>`;
}

export interface TableCardProps<Row> extends Omit<CardProps, 'body'>, TableProps<Row> {
  /** What the table needs beside it in its card: a note on what it leaves out, a link, more rows' pager. */
  after?: Html | Html[] | '' | false;
}

/** A card that holds one table: the card's heading names the part of the page, the caption the table. */
export function tableCard<Row>({ heading, id, narrow, framed, after, ...shown }: TableCardProps<Row>): Html {
  return card({ heading, id, narrow, framed, body: html`${table(shown)} ${after}` });
}
