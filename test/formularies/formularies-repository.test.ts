import { AccountsRepository } from '../../infrastructure/accounts/accounts.repository';
import { FormulariesRepository } from '../../infrastructure/formularies/formularies.repository';
import { readFormularyFile } from '../../infrastructure/formularies/formulary-file';
import type { Database } from '../../infrastructure/storage/database';
import { migrate } from '../../infrastructure/storage/migrations';
import { databaseEngines } from '../support/database-engines';

const engines = databaseEngines('formularies');

const LOADER = { type: 'api_key', id: 'key_test' };
const NO_PLAN = { groupNumber: null, planName: null };

const FILE = [
  'plan,ndc,drug_name,coverage,tier,prior_authorization_required',
  ',00169413212,Ozempic 1 mg pen,covered,3,yes',
  'GRP-20418,00169413212,,covered,2,no',
  ',,Metformin ER,covered,1,no',
  'Silver Select HMO,,Metformin ER,covered,2,yes',
  ',,Wegovy,not_covered,,',
].join('\n');

describe.each(engines)('formularies on %s', (_engine, open) => {
  let db: Database;
  let formularies: FormulariesRepository;
  let accounts: AccountsRepository;

  beforeAll(async () => {
    db = await open();
    await migrate(db);
    formularies = new FormulariesRepository(db);
    accounts = new AccountsRepository(db);
  });
  afterAll(() => db.close());

  async function accountWithFormulary(): Promise<string> {
    const { id } = await accounts.createAccount('Formulary clinic');
    await formularies.replace(id, 'BHH01', readFormularyFile(FILE, 'BHH01'), LOADER);
    return id;
  }

  it('answers undefined for a payer the account loaded no formulary for', async () => {
    const accountId = await accountWithFormulary();
    const { id: otherAccount } = await accounts.createAccount('Other clinic');
    const drugs = [{ name: 'Ozempic 1 mg pen', quantity: 1 }];
    expect(await formularies.coverageFor(accountId, 'OTHER', NO_PLAN, drugs)).toBeUndefined();
    expect(await formularies.coverageFor(otherAccount, 'BHH01', NO_PLAN, drugs)).toBeUndefined();
  });

  it('matches a drug by its NDC in any form, else by its name in any case and spacing', async () => {
    const accountId = await accountWithFormulary();
    const results = await formularies.coverageFor(accountId, 'bhh01', NO_PLAN, [
      { ndc: '0169-4132-12', quantity: 1 },
      { name: '  metformin   ER ', quantity: 30 },
    ]);
    expect(results).toMatchObject([
      { drug: '0169-4132-12', ndc: '00169413212', coverage: 'covered', tier: 3 },
      { drug: '  metformin   ER ', coverage: 'covered', tier: 1 },
    ]);
  });

  it("prefers the row for the member's plan, by group number or plan name, to the payer-wide row", async () => {
    const accountId = await accountWithFormulary();
    const ozempic = [{ ndc: '00169413212', quantity: 1 }];
    const metformin = [{ name: 'Metformin ER', quantity: 30 }];
    const byGroup = { groupNumber: 'grp-20418', planName: 'Gold PPO' };
    const byName = { groupNumber: '99', planName: 'SILVER SELECT, HMO' };
    expect((await formularies.coverageFor(accountId, 'BHH01', byGroup, ozempic))?.[0]).toMatchObject({
      tier: 2,
      prior_authorization_required: 'no',
    });
    expect((await formularies.coverageFor(accountId, 'BHH01', byName, metformin))?.[0]).toMatchObject({
      tier: 2,
      prior_authorization_required: 'yes',
    });
    expect((await formularies.coverageFor(accountId, 'BHH01', byName, ozempic))?.[0]).toMatchObject({
      tier: 3,
      prior_authorization_required: 'yes',
    });
  });

  it('answers not_on_formulary for a drug the loaded formulary does not list, and plan_exclusion for an excluded one', async () => {
    const accountId = await accountWithFormulary();
    const results = await formularies.coverageFor(accountId, 'BHH01', NO_PLAN, [
      { name: 'Mounjaro', quantity: 1 },
      { name: 'Wegovy', quantity: 1 },
    ]);
    expect(results?.map((result) => [result.coverage, result.coverage_detail_code])).toEqual([
      ['not_covered', 'not_on_formulary'],
      ['not_covered', 'plan_exclusion'],
    ]);
  });

  it('replaces a formulary whole and lists each with its row count and loader', async () => {
    const accountId = await accountWithFormulary();
    const replacement = 'drug_name,coverage\nMounjaro,covered\n';
    const summary = await formularies.replace(accountId, 'bhh01', readFormularyFile(replacement, 'BHH01'), {
      type: 'user',
      id: 'usr_admin',
    });
    expect(summary).toMatchObject({ id: 'BHH01', payer_id: 'BHH01', rows: 1, loaded_by: { type: 'user' } });
    expect(await formularies.list(accountId)).toEqual([summary]);
    const results = await formularies.coverageFor(accountId, 'BHH01', NO_PLAN, [
      { name: 'Mounjaro', quantity: 1 },
      { name: 'Ozempic 1 mg pen', quantity: 1 },
    ]);
    expect(results?.map((result) => result.coverage_detail_code)).toEqual(['covered', 'not_on_formulary']);
  });

  it('keeps the previous formulary when a replacement fails part-way', async () => {
    const accountId = await accountWithFormulary();
    const entries = readFormularyFile('drug_name,coverage\nMounjaro,covered\nZepbound,covered\n', 'BHH01');
    // Two rows claiming one line of the file break the primary key after the first was written.
    const broken = [entries[0]!, { ...entries[1]!, row: entries[0]!.row }];
    await expect(formularies.replace(accountId, 'BHH01', broken, LOADER)).rejects.toThrow();
    expect((await formularies.list(accountId))[0]).toMatchObject({ rows: 5 });
    const [ozempic] = (await formularies.coverageFor(accountId, 'BHH01', NO_PLAN, [
      { name: 'Ozempic 1 mg pen', quantity: 1 },
    ]))!;
    expect(ozempic?.coverage).toBe('covered');
  });

  it('removes a formulary, after which its payer answers undefined again', async () => {
    const accountId = await accountWithFormulary();
    expect(await formularies.remove(accountId, 'BHH01')).toMatchObject({ payer_id: 'BHH01', rows: 5 });
    expect(await formularies.remove(accountId, 'BHH01')).toBeUndefined();
    expect(await formularies.list(accountId)).toEqual([]);
    expect(
      await formularies.coverageFor(accountId, 'BHH01', NO_PLAN, [{ name: 'Wegovy', quantity: 1 }]),
    ).toBeUndefined();
  });

  it('loads the largest formulary the format allows', async () => {
    const { id: accountId } = await accounts.createAccount('Large formulary clinic');
    const rows = Array.from({ length: 100_000 }, (_, index) => `Drug ${index},covered,${(index % 5) + 1}`);
    const entries = readFormularyFile(`drug_name,coverage,tier\n${rows.join('\n')}`, 'BIG');
    expect((await formularies.replace(accountId, 'BIG', entries, LOADER)).rows).toBe(100_000);
    const [last] = (await formularies.coverageFor(accountId, 'BIG', NO_PLAN, [
      { name: 'drug 99999', quantity: 1 },
    ]))!;
    expect(last).toMatchObject({ coverage: 'covered', tier: 5 });
  });
});
