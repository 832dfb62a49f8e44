import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';

import * as ts from 'typescript';

/**
 * The layers and the only directions their imports may take. A layer is the first folder of a path;
 * `src/` is the Nest edge, the application services and the processes' entry points.
 */
const ROOT = path.join(__dirname, '..', '..');
const LAYERS = ['domain', 'infrastructure', 'workflows', 'activities', 'src'] as const;
type Layer = (typeof LAYERS)[number];

const MAY_IMPORT: Record<Layer, readonly Layer[]> = {
  domain: ['domain'],
  infrastructure: ['domain', 'infrastructure'],
  workflows: ['domain', 'workflows'],
  activities: ['domain', 'infrastructure', 'activities'],
  src: ['domain', 'infrastructure', 'src'],
};

interface Edge {
  from: string;
  to: string;
  typeOnly: boolean;
}

function sourceFiles(folder: string): string[] {
  return readdirSync(path.join(ROOT, folder)).flatMap((name) => {
    const relative = path.join(folder, name);
    if (statSync(path.join(ROOT, relative)).isDirectory()) return sourceFiles(relative);
    return relative.endsWith('.ts') ? [relative] : [];
  });
}

function resolve(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.normalize(path.join(path.dirname(from), specifier));
  return [`${base}.ts`, path.join(base, 'index.ts'), base.replace(/\.js$/, '.ts')].find((candidate) =>
    FILES.has(candidate),
  );
}

function parsed(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(path.join(ROOT, file), 'utf8'), ts.ScriptTarget.ES2022);
}

function importsOf(file: string): Edge[] {
  const source = parsed(file);
  const edges: Edge[] = [];
  const add = (specifier: ts.Expression | undefined, typeOnly: boolean) => {
    if (!specifier || !ts.isStringLiteral(specifier)) return;
    const to = resolve(file, specifier.text);
    if (to) edges.push({ from: file, to, typeOnly });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) add(node.moduleSpecifier, node.importClause?.isTypeOnly ?? false);
    else if (ts.isExportDeclaration(node)) add(node.moduleSpecifier, node.isTypeOnly);
    else if (ts.isCallExpression(node) && node.arguments.length === 1) add(node.arguments[0], false);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return edges;
}

const FILES = new Set(LAYERS.flatMap(sourceFiles));
const EDGES = [...FILES].flatMap(importsOf);
const layerOf = (file: string) => file.split(path.sep)[0] as Layer;

/** Workflows see their activities' signatures through `import type` only: Temporal's own idiom. */
const isWorkflowSeeingActivityTypes = (edge: Edge) =>
  edge.typeOnly && layerOf(edge.from) === 'workflows' && layerOf(edge.to) === 'activities';

/** The worker's composition root registers the activities and bundles the workflows; nothing else in src/ reaches them. */
const isWorkerWiring = (edge: Edge) =>
  edge.from.startsWith(path.join('src', 'worker') + path.sep) &&
  (layerOf(edge.to) === 'activities' || layerOf(edge.to) === 'workflows');

/**
 * The API talks to workflows through their messages, and names a workflow function only as a type
 * (a typed start); workflow code itself never loads in the API.
 */
const isApiAddressingWorkflows = (edge: Edge) =>
  layerOf(edge.from) === 'src' &&
  layerOf(edge.to) === 'workflows' &&
  (edge.to.endsWith('.messages.ts') || edge.typeOnly);

function cyclesAmong(edges: Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const edge of edges) next.set(edge.from, [...(next.get(edge.from) ?? []), edge.to]);
  const state = new Map<string, 'open' | 'done'>();
  const cycles: string[][] = [];
  const walk = (file: string, trail: string[]): void => {
    state.set(file, 'open');
    for (const target of next.get(file) ?? []) {
      if (state.get(target) === 'open') cycles.push([...trail.slice(trail.indexOf(target)), target]);
      else if (!state.has(target)) walk(target, [...trail, target]);
    }
    state.set(file, 'done');
  };
  for (const file of FILES) if (!state.has(file)) walk(file, [file]);
  return cycles;
}

/**
 * The opening of a statement as this code base writes SQL (keywords in capitals), narrow enough that
 * prose such as "Create an API key" or a route such as `DELETE /webhooks/{id}` never matches.
 */
const SQL_STATEMENT =
  /^\s*(SELECT\s|INSERT\s+INTO\s|UPDATE\s+\S+\s+SET\s|DELETE\s+FROM\s|(CREATE|ALTER|DROP)\s+[A-Z]+\s|TRUNCATE\s)/;

/** The text of every string and template literal of a file, with where it starts. */
function literalsOf(source: ts.SourceFile): { text: string; line: number }[] {
  const literals: { text: string; line: number }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node)) {
      literals.push({
        text: node.text,
        line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1,
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return literals;
}

/** What a controller must reach through a service: storage and the workflow engine. */
const isStorageOrEngine = (typeName: string) =>
  /Repository$/.test(typeName) || ['Database', 'QueryRunner', 'Client', 'WorkflowClient'].includes(typeName);
const STORAGE_OR_ENGINE_TOKENS = ['DATABASE', 'TEMPORAL_CLIENT'];

/** The constructor parameters of every class in a file that declares Nest controllers, by type and token. */
function controllerDependencies(file: string): string[] {
  const source = parsed(file);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isConstructorDeclaration(node)) {
      for (const parameter of node.parameters) {
        const typeName =
          parameter.type && ts.isTypeReferenceNode(parameter.type)
            ? parameter.type.typeName.getText(source)
            : '';
        const tokens = (ts.getDecorators(parameter) ?? []).flatMap((decorator) =>
          ts.isCallExpression(decorator.expression)
            ? decorator.expression.arguments.map((arg) => arg.getText(source))
            : [],
        );
        if (
          isStorageOrEngine(typeName.split('.').pop()!) ||
          tokens.some((token) => STORAGE_OR_ENGINE_TOKENS.includes(token))
        ) {
          found.push(`${file}: ${parameter.name.getText(source)}: ${typeName || tokens.join(', ')}`);
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const SRC_FILES = [...FILES].filter((file) => layerOf(file) === 'src');

/**
 * Inside `src/`: what every feature may use (`common/`, and `contract/`, the published answers), the
 * composition roots that wire processes together, and the features, each a folder whose public
 * module is its `<folder>.module.ts`: the Nest module and what it exports to the rest.
 */
const SHARED = ['common', 'contract'];
const PROCESS_ROOTS = ['app', 'worker', 'admin', 'local'];
const srcFolderOf = (file: string) => file.split(path.sep)[1]!;
const isFeatureFile = (file: string) =>
  layerOf(file) === 'src' &&
  file.split(path.sep).length > 2 &&
  ![...SHARED, ...PROCESS_ROOTS].includes(srcFolderOf(file));
/** The console's component kit, which the case types compose into their pages, is public as well. */
const CONSOLE_KIT = path.join('src', 'console', 'views', 'index.ts');
const isPublicModule = (file: string) =>
  file === path.join('src', srcFolderOf(file), `${srcFolderOf(file)}.module.ts`) || file === CONSOLE_KIT;
const intoAnotherFeature = (edge: Edge) =>
  isFeatureFile(edge.to) && srcFolderOf(edge.from) !== srcFolderOf(edge.to);
/**
 * Files that declare Nest controllers: with Nest's `Controller`, or the API's `ApiController` or the
 * console's `ConsolePages` that apply it.
 */
const CONTROLLER_FILES = SRC_FILES.filter((file) => {
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  return (
    /import \{[^}]*\bController\b[^}]*\} from '@nestjs\/common'/.test(text) ||
    /\bApiController\(/.test(text) ||
    /^@ConsolePages\(/m.test(text)
  );
});

describe('dependencies between layers', () => {
  it('finds the layers it checks', () => {
    for (const layer of LAYERS) expect([...FILES].some((file) => layerOf(file) === layer)).toBe(true);
  });

  it.each(LAYERS)('point one way from %s', (layer) => {
    const wrongWay = EDGES.filter(
      (edge) =>
        layerOf(edge.from) === layer &&
        !MAY_IMPORT[layer].includes(layerOf(edge.to)) &&
        !isWorkflowSeeingActivityTypes(edge) &&
        !isWorkerWiring(edge) &&
        !isApiAddressingWorkflows(edge),
    ).map((edge) => `${edge.from} → ${edge.to}`);
    expect(wrongWay).toEqual([]);
  });

  it('keep src/common free of features: it imports itself, domain and infrastructure only', () => {
    const common = path.join('src', 'common') + path.sep;
    const intoFeatures = EDGES.filter(
      (edge) => edge.from.startsWith(common) && layerOf(edge.to) === 'src' && !edge.to.startsWith(common),
    ).map((edge) => `${edge.from} → ${edge.to}`);
    expect(intoFeatures).toEqual([]);
  });

  it('keep the composition root to modules: src/app imports features only through their module files', () => {
    const app = path.join('src', 'app') + path.sep;
    const pastModules = EDGES.filter(
      (edge) => edge.from.startsWith(app) && intoAnotherFeature(edge) && !isPublicModule(edge.to),
    ).map((edge) => `${edge.from} → ${edge.to}`);
    expect(pastModules).toEqual([]);
  });

  it('keep features apart: one imports another only through its public module', () => {
    expect(isPublicModule(path.join('src', 'cases', 'cases.module.ts'))).toBe(true);
    const intoInternals = EDGES.filter(
      (edge) => isFeatureFile(edge.from) && intoAnotherFeature(edge) && !isPublicModule(edge.to),
    ).map((edge) => `${edge.from} → ${edge.to}`);
    expect(intoInternals).toEqual([]);
  });

  it('keep SQL in infrastructure: src/ declares no repository and writes no SQL statement', () => {
    const repositories = SRC_FILES.filter((file) => file.endsWith('.repository.ts'));
    const statements = SRC_FILES.flatMap((file) =>
      literalsOf(parsed(file))
        .filter((literal) => SQL_STATEMENT.test(literal.text))
        .map((literal) => `${file}:${literal.line}`),
    );
    expect(repositories).toEqual([]);
    expect(statements).toEqual([]);
  });

  it('keep controllers to HTTP: none is handed a repository, the database or the Temporal client', () => {
    expect(CONTROLLER_FILES.length).toBeGreaterThan(15);
    expect(CONTROLLER_FILES.flatMap(controllerDependencies)).toEqual([]);
  });

  it('form no cycle', () => {
    const cycles = cyclesAmong(EDGES.filter((edge) => !isWorkflowSeeingActivityTypes(edge)));
    expect(cycles.map((cycle) => cycle.join(' → '))).toEqual([]);
  });
});
