import { MockActivityEnvironment } from '@temporalio/testing';

import { createCaseActivities } from '../../activities/cases.activities';
import { coverageRequirementsDiscovery } from '../../activities/coverage-requirements-discovery';
import type { CaseActivityDependencies } from '../../activities/cases.activities';
import {
  authorizationNotNeeded,
  catalogFallback,
  sandboxCrdMock,
} from '../../domain/payers/coverage-requirements';
import type { CoverageRequirements } from '../../domain/payers/coverage-requirements';
import { crdQuery } from '../fixtures/crd/crd-fixtures';

const answered = (overrides: Partial<CoverageRequirements>): CoverageRequirements => ({
  ...catalogFallback('crd_unavailable'),
  source: 'crd',
  fallback_reason: null,
  covered: 'covered',
  pa_needed: 'no-auth',
  ...overrides,
});

/** The case activities with only the CRD step wired: the others are never called here. */
function activitiesWith(coverageRequirements: CaseActivityDependencies['coverageRequirements']) {
  return createCaseActivities({ coverageRequirements } as CaseActivityDependencies);
}

describe('the CRD step of a prior authorization', () => {
  it('goes on without the payer, as crd_unavailable, when our side fails on the way (settings, keys)', async () => {
    const { discoverCoverageRequirements } = activitiesWith(async () => {
      throw new Error('No PUBLIC_API_URL: the JWKS URL cannot be named');
    });
    const answer = await new MockActivityEnvironment().run(discoverCoverageRequirements, crdQuery());
    expect(answer).toEqual({ kind: 'fallback', requirements: catalogFallback('crd_unavailable') });
  });

  it('never asks a live payer about a case whose plan was not resolved, which has no member id to send', async () => {
    const asked: string[] = [];
    const discover = coverageRequirementsDiscovery({
      liveCrdService: async (accountId) => {
        asked.push(accountId);
        return undefined;
      },
      policy: {} as never,
    });

    expect(await discover(crdQuery({ mode: 'live', plan: null }))).toEqual({ kind: 'not_asked' });
    expect(asked).toEqual([]);
    await discover(crdQuery({ mode: 'live' }));
    expect(asked).toHaveLength(1);
  });

  it('completes a case only on the payer’s own no-auth or satisfied', () => {
    expect(authorizationNotNeeded(answered({ pa_needed: 'no-auth' }))).toBe(true);
    expect(authorizationNotNeeded(answered({ pa_needed: 'satisfied' }))).toBe(true);
    expect(authorizationNotNeeded(answered({ pa_needed: 'conditional' }))).toBe(false);
    expect(authorizationNotNeeded({ ...answered({}), source: 'catalog' })).toBe(false);
  });

  it('never completes an order the payer says it does not cover, whatever pa-needed says', () => {
    expect(authorizationNotNeeded(answered({ covered: 'not-covered', pa_needed: 'no-auth' }))).toBe(false);
  });

  it("tells the sandbox to need authorization when the request scripts the payer's determination", () => {
    expect(sandboxCrdMock({ result: 'denied' })).toBe('auth-needed');
    expect(sandboxCrdMock({ result: 'denied', coverage_requirements: 'no-auth' })).toBe('no-auth');
    expect(sandboxCrdMock({ outage: { unavailable_for_seconds: 5 } })).toBeNull();
    expect(sandboxCrdMock(null)).toBeNull();
  });
});
