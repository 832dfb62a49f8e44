import { Get, Inject, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';

import { FINAL_STATUSES } from '../../../domain/cases/case-model';
import { RequiresRole } from '../../common/route-access';
import { CasesService } from '../../cases/cases.module';
import { ApiError } from '../../common/errors';
import { ConsoleAudit } from '../console-audit';
import { sendPage } from '../layout';
import { attentionListView, AttentionRow } from './attention-views';
import { CASE_SECTIONS } from './case-sections';
import { CasesNeedingAttention } from './cases-needing-attention';
import { principalOf } from './console-principal';
import { ConsolePages } from '../console-pages';

/** How many cases the page reads and shows; Temporal Web's saved query lists every one. */
const MAX_CASES_SHOWN = 100;

/**
 * The platform operators' list of cases waiting out a connector outage, in every account: Temporal
 * visibility finds them by the `CaseAttention` search attribute, and each is read as its case page
 * reads it, so the list shows what the case says now, in the mode the person views.
 */
@ConsolePages()
export class AttentionPageController {
  constructor(
    @Inject(CasesNeedingAttention) private readonly needingAttention: CasesNeedingAttention,
    @Inject(CasesService) private readonly cases: CasesService,
    @Inject(ConsoleAudit) private readonly audit: ConsoleAudit,
  ) {}

  @Get('attention')
  @RequiresRole('operator')
  async list(@Req() req: Request, @Res() res: Response): Promise<void> {
    const livemode = principalOf(req).livemode;
    const found = await this.needingAttention.find(MAX_CASES_SHOWN);
    const read = await Promise.all(found.cases.map(({ caseId, object }) => this.readCase(caseId, object)));
    const rows = read
      .filter((row): row is AttentionRow => row !== undefined && row.record.livemode === livemode)
      .sort(
        (a, b) =>
          b.record.attention.since.localeCompare(a.record.attention.since) ||
          b.record.id.localeCompare(a.record.id),
      );
    await this.recordListing(req, rows);
    sendPage(req, res, {
      title: 'Cases needing attention',
      body: attentionListView(rows, found.more ? MAX_CASES_SHOWN : undefined),
    });
  }

  /** The case as it stands; one that has gone on, ended, or is not verifiably ours since is left out. */
  private async readCase(caseId: string, object: string): Promise<AttentionRow | undefined> {
    const section = CASE_SECTIONS.find((candidate) => candidate.type.object === object);
    if (!section) return undefined;
    try {
      const { record, accountId } = await this.cases.getForOperator(section.type, caseId);
      if (!record.attention || FINAL_STATUSES.includes(record.status)) return undefined;
      return { section, accountId, record: { ...record, attention: record.attention } };
    } catch (error) {
      if (error instanceof ApiError && error.code === 'not_found') return undefined;
      throw error;
    }
  }

  /** Each account's cases shown are a listing in that account's trail, as an operator's case read is. */
  private async recordListing(req: Request, rows: AttentionRow[]): Promise<void> {
    const groups = new Map<string, AttentionRow[]>();
    for (const row of rows) {
      const key = `${row.accountId} ${row.section.type.object}`;
      groups.set(key, [...(groups.get(key) ?? []), row]);
    }
    for (const [key, group] of groups) {
      const [accountId, object] = key.split(' ') as [string, string];
      await this.audit.record(
        req,
        'case.listed',
        { object, id: null },
        { filters: ['attention'], result_ids: group.map((row) => row.record.id) },
        accountId,
      );
    }
  }
}
