import { describeInBrowser } from '../support/browser';
import { shareConsoleInBrowser } from '../support/console-in-browser';
import { describeJourneys } from './console-journeys';
import { describeCrdConnector } from './console-sections/crd-connector';
import { describeFeedback } from './console-sections/feedback';
import { describeOutbox } from './console-sections/outbox';
import { describeProviderAuthorizations } from './console-sections/provider-authorizations';
import { describeRegistryLookup } from './console-sections/registry-lookup';
import { describeSecurity } from './console-sections/security';

/**
 * The console checked in Chromium, axe included, on one app, worker and browser: each section, then a
 * clinic's journey. Each suite works in accounts of its own, and booting them once rather than per
 * suite or per file saves seconds each.
 */
describeInBrowser('the console in a browser', () => {
  // Each suite's file says which of these settings it relies on.
  const shared = shareConsoleInBrowser({
    PAYER_POLL_INTERVAL_MS: String(3_600_000),
    PA_EXPEDITED_REVIEW_DUE_MS: '1000',
    PUBLIC_API_URL: 'https://api.clinic.example',
  });
  describeSecurity(shared);
  describeFeedback(shared);
  describeOutbox(shared);
  describeProviderAuthorizations(shared);
  describeRegistryLookup(shared);
  describeCrdConnector(shared);
  describeJourneys(shared);
});
