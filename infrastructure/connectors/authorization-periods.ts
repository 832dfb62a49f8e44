import { readFileSync } from 'node:fs';
import * as path from 'node:path';

import { projectRoot } from '../project-root';

interface AuthorizationPeriodClass {
  id: string;
  name: string;
  drugs: string[];
  initial_approval_days: number;
  rationale: string;
}

interface AuthorizationPeriodsFile {
  unclassified_initial_approval_days: number;
  classes: AuthorizationPeriodClass[];
}

/** How long the sandbox payer's initial approval lasts for a drug, by its class (catalog/authorization-periods.json). */
export class AuthorizationPeriods {
  constructor(private readonly data: AuthorizationPeriodsFile) {}

  get classes(): readonly AuthorizationPeriodClass[] {
    return this.data.classes;
  }

  initialApprovalDays(drugId: string | undefined): number {
    const drugClass = drugId ? this.data.classes.find((entry) => entry.drugs.includes(drugId)) : undefined;
    return drugClass?.initial_approval_days ?? this.data.unclassified_initial_approval_days;
  }
}

let shipped: AuthorizationPeriods | undefined;

/** The shipped periods, read on first use and kept: they never change while the process runs. */
export function authorizationPeriods(): AuthorizationPeriods {
  shipped ??= new AuthorizationPeriods(
    JSON.parse(
      readFileSync(path.join(projectRoot(), 'catalog', 'authorization-periods.json'), 'utf8'),
    ) as AuthorizationPeriodsFile,
  );
  return shipped;
}
