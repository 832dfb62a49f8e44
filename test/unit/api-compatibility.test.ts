import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { projectRoot } from '../../infrastructure/project-root';
import { API_VERSION } from '../../src/common/http-edge';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const CHECK = path.join(projectRoot(), 'scripts/check-api-compatibility.js');
const current = (): Json =>
  JSON.parse(readFileSync(path.join(projectRoot(), 'docs/api/releases', `${API_VERSION}.json`), 'utf8'));

describe('the API compatibility check', () => {
  let folder: string;

  beforeEach(() => {
    folder = mkdtempSync(path.join(os.tmpdir(), 'api-releases-'));
    mkdirSync(path.join(folder, 'releases'));
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  /** Two releases, the second made from the current document by `change`, and a changelog section for it. */
  function check(change: (document: Json) => void, section: string) {
    const next = current();
    change(next);
    writeFileSync(path.join(folder, 'releases/2030-01-01.json'), JSON.stringify(current()));
    writeFileSync(path.join(folder, 'releases/2030-02-01.json'), JSON.stringify(next));
    writeFileSync(
      path.join(folder, 'CHANGELOG.md'),
      `# Changelog\n\n## 2030-02-01\n\n${section}\n\n## 2030-01-01\n`,
    );
    const run = spawnSync(
      process.execPath,
      [CHECK, '--releases', path.join(folder, 'releases'), '--changelog', path.join(folder, 'CHANGELOG.md')],
      { encoding: 'utf8' },
    );
    return { status: run.status, output: run.stdout + run.stderr };
  }

  const dropSecretHint = (document: Json) => {
    const endpoint = document.components.schemas.WebhookEndpoint;
    delete endpoint.properties.secret_hint;
    endpoint.required = endpoint.required.filter((name: string) => name !== 'secret_hint');
  };

  it('fails a release that removes an answered field without announcing it, naming where', () => {
    const { status, output } = check(dropSecretHint, '- **Endpoints are leaner.**');
    expect(status).toBe(1);
    expect(output).toMatch(/GET \/webhooks\/\{id\}: removed the required property `data\/secret_hint`/);
  });

  it('passes the same release once its section lists the change under Breaking changes', () => {
    const { status } = check(
      dropSecretHint,
      '**Breaking changes** (what an integrator must do):\n\n- `secret_hint` is gone: stop reading it.',
    );
    expect(status).toBe(0);
  });

  it('fails a release that removes a field from what a webhook receiver is sent', () => {
    const { status, output } = check((document) => {
      // The first member is the thin case; the second, a provider authorization, has no mode.
      const thin = document.components.schemas.ThinNotifiedObject.anyOf[0];
      delete thin.properties.livemode;
      thin.required = thin.required.filter((name: string) => name !== 'livemode');
    }, '- **Thin notifications are thinner.**');
    expect(status).toBe(1);
    expect(output).toMatch(
      /webhooks-sent\/prior_authorization\.overdue: removed the required property `[^`]*data\/[^`]*livemode`/,
    );
  });

  it('passes a release that adds a required field to a case, which receivers and readers are sent', () => {
    const { status } = check((document) => {
      const verification = document.components.schemas.BenefitVerification;
      verification.properties.reviewed_by_human = { type: 'boolean' };
      verification.required.push('reviewed_by_human');
    }, '- **A benefit verification says whether a person reviewed it.**');
    expect(status).toBe(0);
  });

  it('passes a release that only adds a field to an answer, with nothing to announce', () => {
    const { status, output } = check((document) => {
      document.components.schemas.WebhookEndpoint.properties.description = { type: 'string' };
    }, '- **Endpoints have a description.**');
    expect(status).toBe(0);
    expect(output).toContain('keeps every promise');
  });
});
