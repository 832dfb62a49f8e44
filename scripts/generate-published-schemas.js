#!/usr/bin/env node
'use strict';
/**
 * Writes src/contract/published-schemas.json: the JSON Schema of every object the API answers with,
 * generated from the TypeScript types in src/contract/published-objects.ts, so the API document
 * describes exactly the types the code builds its answers from. `--check` writes nothing and fails
 * when the committed file differs from what the types give (CI runs it through a test).
 *
 * The schemas are strict (no field beyond those declared): the tests check answers against them as
 * they are. The served document opens them to added fields (src/app/openapi.ts).
 */
const { readFileSync, writeFileSync } = require('node:fs');
const path = require('node:path');
const { createGenerator } = require('ts-json-schema-generator');

const ROOT = path.join(__dirname, '..');
const SOURCE = path.join(ROOT, 'src/contract/published-objects.ts');
const TARGET = path.join(ROOT, 'src/contract/published-schemas.json');
const ROOT_TYPE = 'PublishedObjects';

function generate() {
  const { definitions } = createGenerator({
    path: SOURCE,
    tsconfig: path.join(ROOT, 'tsconfig.json'),
    type: ROOT_TYPE,
    skipTypeCheck: true,
    additionalProperties: false,
    sortProps: true,
  }).createSchema(ROOT_TYPE);
  const published = Object.keys(definitions[ROOT_TYPE].properties);
  delete definitions[ROOT_TYPE];
  const names = adoptPublishedNames(definitions, published);
  const renamed = {};
  for (const name of Object.keys(definitions).sort()) {
    renamed[names.get(name) ?? name] = rewriteReferences(definitions[name], names);
  }
  return `${JSON.stringify({ published, schemas: renamed }, null, 2)}\n`;
}

/**
 * A published name that only aliases a domain type (`PriorAuthorization` for
 * `PriorAuthorizationCase`) takes the aliased schema's place, so clients see one schema under the
 * published name instead of a reference to an internal one.
 */
function adoptPublishedNames(definitions, published) {
  const names = new Map();
  for (const name of published) {
    const { $ref, description, ...rest } = definitions[name];
    if (!$ref || Object.keys(rest).length > 0) continue;
    const aliased = $ref.slice('#/definitions/'.length);
    if (published.includes(aliased) || names.has(aliased)) continue;
    definitions[name] = { ...definitions[aliased], ...(description && { description }) };
    delete definitions[aliased];
    names.set(aliased, name);
  }
  return names;
}

function rewriteReferences(node, names) {
  if (Array.isArray(node)) return node.map((item) => rewriteReferences(item, names));
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => {
      if (key === '$ref' && typeof value === 'string') {
        const name = decodeURIComponent(value.slice('#/definitions/'.length));
        return [key, `#/components/schemas/${names.get(name) ?? name}`];
      }
      return [key, rewriteReferences(value, names)];
    }),
  );
}

const generated = generate();
if (process.argv.includes('--check')) {
  if (readFileSync(TARGET, 'utf8') !== generated) {
    console.error(
      `${path.relative(ROOT, TARGET)} is stale: the types it is generated from changed. Run npm run generate:schemas.`,
    );
    process.exit(1);
  }
} else {
  writeFileSync(TARGET, generated);
}
