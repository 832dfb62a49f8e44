import { readFileSync } from 'node:fs';
import * as path from 'node:path';

import { CASE_SECTIONS, SECTION_SEGMENTS } from '../../src/console/cases/case-sections';
import { projectRoot } from '../../infrastructure/project-root';
import { startTestApp, TestApp } from '../support/test-app';

type RouterLayer = { route?: { path: string; methods: Record<string, boolean> } };

/** The decisions a case page posts to `/console/<section>/<id>/<decision>`, which the table lists by name. */
const DECISIONS = new Set(CASE_SECTIONS.flatMap((section) => section.type.decisions.map(({ name }) => name)));

/**
 * A route as docs/console.md writes it: parameters as `{}`, whatever their names, any of the four
 * case sections as `{section}`, since the table lists a route served for every section once, and the
 * decision parameter as `{decision}`.
 */
function canonical(method: string, routePath: string): string {
  const segments = routePath
    .split('/')
    .map((segment, index) =>
      index === 2 && (SECTION_SEGMENTS as readonly string[]).includes(segment)
        ? '{section}'
        : segment === ':decision'
          ? '{decision}'
          : segment.startsWith(':') || (segment.startsWith('{') && segment !== '{section}')
            ? '{}'
            : segment,
    );
  return `${method.toUpperCase()} ${segments.join('/')}`;
}

/** Whether a documented route is one the app serves: only a decision's name fills the decision parameter. */
function serves(served: string, documented: string): boolean {
  const [servedSegments, documentedSegments] = [served.split('/'), documented.split('/')];
  return (
    servedSegments.length === documentedSegments.length &&
    servedSegments.every(
      (segment, index) =>
        segment === documentedSegments[index] ||
        (segment === '{decision}' && DECISIONS.has(documentedSegments[index]!)),
    )
  );
}

function documentedRoutes(): string[] {
  const text = readFileSync(path.join(projectRoot(), 'docs/console.md'), 'utf8');
  const table = text.slice(text.indexOf('## Routes'));
  const firstCells = table
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => line.split('|')[1]!);
  return firstCells.flatMap((cell) =>
    [...cell.matchAll(/`(GET|POST) (\/console[^`]*)`/g)].map((match) => canonical(match[1]!, match[2]!)),
  );
}

describe("docs/console.md's table of routes", () => {
  let testApp: TestApp;
  let served: string[];

  beforeAll(async () => {
    testApp = await startTestApp();
    const router = (testApp.app.getHttpAdapter().getInstance() as { router: { stack: RouterLayer[] } })
      .router;
    served = [
      ...new Set(
        router.stack.flatMap((layer) =>
          layer.route && layer.route.path.startsWith('/console')
            ? Object.entries(layer.route.methods)
                .filter(([method, enabled]) => enabled && method !== '_all')
                .map(([method]) => canonical(method, layer.route!.path))
            : [],
        ),
      ),
    ];
  });
  afterAll(() => testApp.close());

  it('lists every route the console serves', () => {
    const documented = documentedRoutes();
    expect(served.filter((route) => !documented.some((entry) => serves(route, entry)))).toEqual([]);
  });

  it('lists no route the console does not serve', () => {
    expect(documentedRoutes().filter((entry) => !served.some((route) => serves(route, entry)))).toEqual([]);
  });
});
