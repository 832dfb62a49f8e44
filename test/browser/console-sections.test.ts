import { describeInBrowser } from '../support/browser';
import { shareConsoleInBrowser } from '../support/console-in-browser';
import { describeCrdConnector } from './console-sections/crd-connector';
import { describeFeedback } from './console-sections/feedback';
import { describeOutbox } from './console-sections/outbox';
import { describeProviderAuthorizations } from './console-sections/provider-authorizations';
import { describeRegistryLookup } from './console-sections/registry-lookup';
import { describeSecurity } from './console-sections/security';

/**
 * Console sections checked in Chromium, axe included, on one app, worker and browser: each suite
 * works in accounts of its own, and booting them once rather than per suite saves seconds each.
 */
describeInBrowser('console sections in a browser', () => {
  // Each section's file says which of these settings it relies on.
  const shared = shareConsoleInBrowser({
    PAYER_POLL_INTERVAL_MS: '300',
    PUBLIC_API_URL: 'https://api.clinic.example',
  });
  describeSecurity(shared);
  describeFeedback(shared);
  describeOutbox(shared);
  describeProviderAuthorizations(shared);
  describeRegistryLookup(shared);
  describeCrdConnector(shared);
});
