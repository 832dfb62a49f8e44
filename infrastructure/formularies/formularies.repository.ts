import type { DrugRequest } from '../../domain/cases/benefit-verification-request';
import { normalizeNdc } from '../../domain/payers/payer-catalog';
import type { DrugCoverage } from '../../domain/payers/payer-connector';
import type { Database } from '../storage/database';
import {
  coverageFromFormulary,
  drugNameKeyOf,
  entryForDrug,
  FormularyEntry,
  payerIdKeyOf,
  planKeyOf,
  planKeysOf,
} from './formulary-entry';

/** A loaded formulary as the admin API lists it; its id within the account is its payer id. */
export interface FormularySummary {
  id: string;
  object: 'formulary';
  payer_id: string;
  rows: number;
  loaded_at: string;
  loaded_by: FormularyLoader;
}

/** Who loaded a formulary: the audit actor of the request (an API key or a console user). */
export interface FormularyLoader {
  type: string;
  id: string;
}

interface SummaryRow {
  payer_id: string;
  row_count: number;
  loaded_at: string;
  loaded_by_type: string;
  loaded_by_id: string;
}

/** Rows per INSERT: large enough that 100 000 rows take a few dozen statements, small enough to stay light. */
const INSERT_BATCH = 2_000;
const SUMMARY_COLUMNS = 'payer_id, row_count, loaded_at, loaded_by_type, loaded_by_id';

/**
 * The formularies accounts load for live benefit verifications: one per (account, payer id),
 * replaced whole, looked up per drug by the benefit-verification activity.
 */
export class FormulariesRepository {
  constructor(private readonly db: Database) {}

  /** All rows or none: a replace that fails part-way leaves the previous formulary as it was. */
  async replace(
    accountId: string,
    payerId: string,
    entries: readonly FormularyEntry[],
    loadedBy: FormularyLoader,
  ): Promise<FormularySummary> {
    const payer = payerIdKeyOf(payerId);
    return this.db.transaction(async (tx) => {
      // The upsert locks the formulary's row first, so two concurrent replaces of it take turns.
      const [summary] = await tx.query<SummaryRow>(
        `INSERT INTO formularies (account_id, payer_id, row_count, loaded_at, loaded_by_type, loaded_by_id)
         VALUES ($1, $2, $3, now(), $4, $5)
         ON CONFLICT (account_id, payer_id) DO UPDATE SET row_count = EXCLUDED.row_count,
           loaded_at = EXCLUDED.loaded_at, loaded_by_type = EXCLUDED.loaded_by_type,
           loaded_by_id = EXCLUDED.loaded_by_id
         RETURNING ${SUMMARY_COLUMNS}`,
        [accountId, payer, entries.length, loadedBy.type, loadedBy.id],
      );
      await tx.query('DELETE FROM formulary_entries WHERE account_id = $1 AND payer_id = $2', [
        accountId,
        payer,
      ]);
      for (let start = 0; start < entries.length; start += INSERT_BATCH) {
        const batch = entries.slice(start, start + INSERT_BATCH).map((entry) => ({
          row_number: entry.row,
          plan_key: planKeyOf(entry.plan),
          ndc: entry.ndc,
          drug_name_key: drugNameKeyOf(entry.drug_name),
          entry,
        }));
        await tx.query(
          `INSERT INTO formulary_entries (account_id, payer_id, row_number, plan_key, ndc, drug_name_key, entry)
           SELECT $1, $2, row_number, plan_key, ndc, drug_name_key, entry
           FROM jsonb_to_recordset($3::jsonb)
             AS loaded (row_number integer, plan_key text, ndc text, drug_name_key text, entry jsonb)`,
          [accountId, payer, JSON.stringify(batch)],
        );
      }
      return toSummary(summary!);
    });
  }

  async list(accountId: string): Promise<FormularySummary[]> {
    const rows = await this.db.query<SummaryRow>(
      `SELECT ${SUMMARY_COLUMNS} FROM formularies WHERE account_id = $1 ORDER BY payer_id`,
      [accountId],
    );
    return rows.map(toSummary);
  }

  /** The removed formulary, or undefined when the account has none for the payer. */
  async remove(accountId: string, payerId: string): Promise<FormularySummary | undefined> {
    const [removed] = await this.db.query<SummaryRow>(
      `DELETE FROM formularies WHERE account_id = $1 AND payer_id = $2 RETURNING ${SUMMARY_COLUMNS}`,
      [accountId, payerIdKeyOf(payerId)],
    );
    return removed && toSummary(removed);
  }

  /**
   * One result per requested drug from the account's formulary for the payer, in request order;
   * undefined when the account loaded none for that payer (then no formulary answers for the drugs).
   */
  async coverageFor(
    accountId: string,
    payerId: string,
    plan: { groupNumber: string | null; planName: string | null },
    drugs: DrugRequest[],
  ): Promise<DrugCoverage[] | undefined> {
    const payer = payerIdKeyOf(payerId);
    const [loaded] = await this.db.query<{ exists: boolean }>(
      'SELECT true AS exists FROM formularies WHERE account_id = $1 AND payer_id = $2',
      [accountId, payer],
    );
    if (!loaded) return undefined;
    const planKeys = planKeysOf(plan);
    const ndcs = drugs.flatMap((drug) => (drug.ndc ? [normalizeNdc(drug.ndc)] : []));
    const names = drugs.flatMap((drug) => drugNameKeyOf(drug.name) ?? []);
    const rows = await this.db.query<{ entry: FormularyEntry }>(
      `SELECT entry FROM formulary_entries
       WHERE account_id = $1 AND payer_id = $2 AND plan_key = ANY($3::text[])
         AND (ndc = ANY($4::text[]) OR drug_name_key = ANY($5::text[]))`,
      [accountId, payer, ['', ...planKeys], ndcs, names],
    );
    const entries = rows.map((row) => row.entry);
    return drugs.map((drug) => coverageFromFormulary(drug, entryForDrug(entries, planKeys, drug)));
  }
}

function toSummary(row: SummaryRow): FormularySummary {
  return {
    id: row.payer_id,
    object: 'formulary',
    payer_id: row.payer_id,
    rows: row.row_count,
    loaded_at: row.loaded_at,
    loaded_by: { type: row.loaded_by_type, id: row.loaded_by_id },
  };
}
