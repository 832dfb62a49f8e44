import type { Provider, Type } from '@nestjs/common';

import { ApiKeysPageController } from './api-keys-page.controller';
import { ConnectorsPageController } from './connectors-page.controller';
import { WebhooksPageController } from './webhooks-page.controller';

// Typed as Nest's Type, so the console's list of every area's controllers stays one type.
const CONTROLLERS: Type[] = [ApiKeysPageController, WebhooksPageController, ConnectorsPageController];

/** The account's API keys, webhook endpoints and connectors (the specification's admin panel). */
export const adminConsole = {
  controllers: CONTROLLERS,
  providers: (): Provider[] => [],
};
