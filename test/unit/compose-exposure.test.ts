import { readFileSync } from 'node:fs';
import * as path from 'node:path';

import { load } from 'js-yaml';

import { projectRoot } from '../../infrastructure/project-root';

type PortMapping = string | number | { target?: number; published?: string | number; host_ip?: string };

interface PublishedPort {
  service: string;
  hostIp: string | undefined;
  containerPort: string;
}

const compose = load(readFileSync(path.join(projectRoot(), 'docker-compose.yml'), 'utf8')) as {
  services: Record<string, { ports?: PortMapping[] }>;
};

/** Every port a service publishes, in Compose's short ("[ip:]host:container") or long syntax. */
function publishedPorts(): PublishedPort[] {
  return Object.entries(compose.services).flatMap(([service, definition]) =>
    (definition.ports ?? []).map((mapping): PublishedPort => {
      if (typeof mapping === 'object') {
        return { service, hostIp: mapping.host_ip, containerPort: String(mapping.target) };
      }
      const parts = String(mapping).split(':');
      // "container" alone and "host:container" publish on every interface.
      return {
        service,
        hostIp: parts.length === 3 ? parts[0] : undefined,
        containerPort: parts[parts.length - 1]!,
      };
    }),
  );
}

/** The API authenticates every request; nothing else in the stack does. */
const PUBLIC_SERVICES = ['api'];

describe('the Compose file’s network exposure', () => {
  it('publishes the Temporal frontend and Temporal Web on 127.0.0.1 only', () => {
    const temporalPorts = publishedPorts().filter(({ service }) =>
      ['temporal', 'temporal-ui'].includes(service),
    );
    expect(temporalPorts.map(({ containerPort }) => containerPort).sort()).toEqual(['7233', '8080']);
    for (const port of temporalPorts) expect(port).toMatchObject({ hostIp: '127.0.0.1' });
  });

  it('publishes nothing beyond loopback except the authenticated API', () => {
    const exposed = publishedPorts().filter(
      ({ service, hostIp }) => !PUBLIC_SERVICES.includes(service) && hostIp !== '127.0.0.1',
    );
    expect(exposed).toEqual([]);
  });

  it('sets no DEV_API_KEY, which production refuses', () => {
    const environments = Object.values(compose.services).map(
      (definition) => (definition as { environment?: Record<string, unknown> }).environment ?? {},
    );
    for (const environment of environments) expect(environment).not.toHaveProperty('DEV_API_KEY');
  });
});
