import type { ClinicalEligibilityCase } from '../../../../domain/cases/clinical-eligibility';
import { table, statusBadge, text } from '../../../console/views';
import type { CaseConsole, CaseTypeView } from '../../case-console';

const CLINICAL_ELIGIBILITY_VIEW: CaseTypeView<ClinicalEligibilityCase> = {
  facts: () => [],
  results: ({ outcome }) =>
    outcome
      ? table({
          caption: 'Eligibility per drug',
          rows: outcome.results,
          columns: [
            { heading: 'Drug', cell: (result) => result.drug },
            { heading: 'Eligibility', cell: (result) => statusBadge(result.status) },
            {
              heading: 'Criteria met',
              cell: (result) =>
                `${result.criteria.filter((criterion) => criterion.status === 'met').length} of ${result.criteria.length}`,
            },
            {
              heading: 'Prior authorization required',
              cell: (result) =>
                text(result.prior_authorization_requirement ?? result.prior_authorization_required),
            },
            {
              heading: 'Reasons',
              cell: (result) =>
                result.unqualified_reasons.map((reason) => reason.description).join('; ') || '—',
            },
          ],
        })
      : undefined,
};

/** Clinical eligibility checks in the console: their per-drug results; people decide nothing on them. */
export const CLINICAL_ELIGIBILITY_CONSOLE: CaseConsole<ClinicalEligibilityCase> = {
  section: {
    segment: 'clinical-eligibility',
    title: 'Clinical eligibility',
    singular: 'Clinical eligibility check',
  },
  view: CLINICAL_ELIGIBILITY_VIEW,
  decisionForms: [],
};
