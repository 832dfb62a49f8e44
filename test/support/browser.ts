import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';

import { Browser, chromium, Page } from 'playwright-core';

import type { TestApp } from './test-app';

const SYSTEM_CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

/** The Chromium the browser tests drive: CHROMIUM_PATH, else the one Debian's package installs. */
export function chromiumPath(): string | undefined {
  const configured = process.env.CHROMIUM_PATH;
  if (configured) return configured;
  return SYSTEM_CHROMIUM.find((candidate) => existsSync(candidate));
}

/**
 * Browser suites run wherever a Chromium is installed and are skipped elsewhere, with a notice;
 * CI installs one and sets REQUIRE_BROWSER, so there a missing browser fails the run instead.
 */
export function describeInBrowser(name: string, suite: () => void): void {
  if (chromiumPath()) return describe(name, suite);
  if (process.env.REQUIRE_BROWSER) throw new Error('REQUIRE_BROWSER is set but no Chromium was found');
  process.stderr.write(
    `Skipping "${name}": no Chromium found (set CHROMIUM_PATH or install Debian's chromium).\n`,
  );
  describe.skip(name, suite);
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    // CI runs as root in a container, where Chromium's sandbox cannot start.
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
  });
}

/** The test app on a real loopback port, as a browser reaches it. */
export async function serveOverHttp(testApp: TestApp): Promise<string> {
  await testApp.app.listen(0, '127.0.0.1');
  const { port } = testApp.app.getHttpServer().address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

/**
 * Collects what a page reports going wrong: script errors, failed loads and, above all, anything
 * the Content-Security-Policy refused, which the console must never cause.
 */
export function watchForProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  return problems;
}

/** Screenshots of each page, in a folder the run names in its output. */
export class Screenshots {
  readonly directory: string;
  private announced = false;

  constructor(suite: string) {
    const root =
      process.env.CONSOLE_SCREENSHOTS_DIR ?? path.join(process.cwd(), 'test-results', 'console-screenshots');
    this.directory = path.join(root, suite);
  }

  async take(page: Page, name: string): Promise<void> {
    if (!this.announced) {
      mkdirSync(this.directory, { recursive: true });
      process.stderr.write(`Console screenshots are written to ${this.directory}\n`);
      this.announced = true;
    }
    await page.screenshot({ path: path.join(this.directory, `${name}.png`), fullPage: true });
  }
}

/**
 * What axe-core finds wrong on the page against WCAG 2 A and AA and its best practices: labels,
 * names, contrast, landmarks, heading order. Run through the debugging protocol, so the page's own
 * Content-Security-Policy stays exactly as served.
 */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  await page.evaluate(readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: AxeRunner }).axe;
    const result = await axe.run({ runOnly: ['wcag2a', 'wcag2aa', 'best-practice'] });
    return result.violations.map((violation) => `${violation.id}: ${violation.nodes[0]?.html ?? ''}`);
  });
  return violations;
}

interface AxeRunner {
  run(options: object): Promise<{ violations: Array<{ id: string; nodes: Array<{ html: string }> }> }>;
}
