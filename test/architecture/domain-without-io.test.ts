import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';

import * as ts from 'typescript';

/**
 * The domain holds rules over values it is handed: catalogs, cases, clinical records. Reading disk,
 * network, the environment or the process is infrastructure's work, so the domain may import, besides
 * itself, only what computes: randomness for ids, and Temporal's search-attribute definitions.
 */
const ROOT = path.join(__dirname, '..', '..');
const PACKAGES_THE_DOMAIN_MAY_IMPORT = new Set(['node:crypto', '@temporalio/common']);
const GLOBALS_THAT_REACH_OUTSIDE = new Set(['process', 'fetch', 'require']);

function domainFiles(folder = 'domain'): string[] {
  return readdirSync(path.join(ROOT, folder)).flatMap((name) => {
    const relative = path.join(folder, name);
    if (statSync(path.join(ROOT, relative)).isDirectory()) return domainFiles(relative);
    return relative.endsWith('.ts') ? [relative] : [];
  });
}

/** Each package import and each use of a global that reaches outside, as `file: what`. */
function reachesOutside(file: string): string[] {
  const source = ts.createSourceFile(
    file,
    readFileSync(path.join(ROOT, file), 'utf8'),
    ts.ScriptTarget.ES2022,
  );
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier) &&
      !node.moduleSpecifier.text.startsWith('.') &&
      !PACKAGES_THE_DOMAIN_MAY_IMPORT.has(node.moduleSpecifier.text)
    ) {
      found.push(`${file}: imports ${node.moduleSpecifier.text}`);
    }
    if (ts.isIdentifier(node) && GLOBALS_THAT_REACH_OUTSIDE.has(node.text) && !isPropertyName(node)) {
      found.push(`${file}: uses ${node.text}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** `x.process` or `{ process: … }` name a property, not the global. */
function isPropertyName(node: ts.Identifier): boolean {
  const parent = node.parent;
  return (
    (ts.isPropertyAccessExpression(parent) && parent.name === node) ||
    ((ts.isPropertyAssignment(parent) || ts.isPropertySignature(parent) || ts.isMethodDeclaration(parent)) &&
      parent.name === node)
  );
}

describe('the domain', () => {
  it('reads nothing from disk, network, environment or process', () => {
    expect(domainFiles().flatMap(reachesOutside)).toEqual([]);
  });

  it('is found where the check looks', () => {
    expect(domainFiles()).toContain(path.join('domain', 'payers', 'payer-catalog.ts'));
  });
});
