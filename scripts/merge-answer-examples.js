#!/usr/bin/env node
'use strict';
/**
 * `node scripts/merge-answer-examples.js FOLDER`: from the answers the test suite kept while
 * RECORD_ANSWER_EXAMPLES named FOLDER (one file per test app), writes src/contract/answer-examples.json:
 * per operation and status (`GET /events 200`), the smallest answer, a list's preferring one that holds
 * something. The API document shows them as its examples; a test checks each against its schema.
 */
const { readdirSync, readFileSync, writeFileSync } = require('node:fs');
const path = require('node:path');

const TARGET = path.join(__dirname, '..', 'src/contract/answer-examples.json');

function holdsItems(answer) {
  const data = answer && answer.data;
  return !(data && data.object === 'list' && Array.isArray(data.data) && data.data.length === 0);
}

/** Whether `candidate` makes a better example than the one `kept` (undefined when none is). */
function betterExample(candidate, kept) {
  if (kept === undefined) return true;
  if (holdsItems(candidate) !== holdsItems(kept)) return holdsItems(candidate);
  return JSON.stringify(candidate).length < JSON.stringify(kept).length;
}

/**
 * A new API key's secret, though it worked only in a test's throwaway database, reads like a real
 * one; the example shows its shape with a placeholder instead.
 */
function withoutSecrets(value) {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, member]) => [
      key,
      key === 'secret' && typeof member === 'string'
        ? member.replace(/^([a-z]+_[a-z]+_)(.+)$/, (_, prefix, random) => prefix + 'x'.repeat(random.length))
        : withoutSecrets(member),
    ]),
  );
}

function main(folder) {
  if (!folder) {
    console.error('Name the folder the tests kept their answers in.');
    process.exit(2);
  }
  const chosen = {};
  for (const file of readdirSync(folder)) {
    const examples = JSON.parse(readFileSync(path.join(folder, file), 'utf8'));
    for (const [key, answer] of Object.entries(examples)) {
      if (betterExample(answer, chosen[key])) chosen[key] = answer;
    }
  }
  const sorted = Object.fromEntries(
    Object.keys(chosen)
      .sort()
      .map((key) => [key, withoutSecrets(chosen[key])]),
  );
  writeFileSync(TARGET, `${JSON.stringify(sorted, null, 2)}\n`);
  console.log(`${Object.keys(sorted).length} examples written to ${path.relative(process.cwd(), TARGET)}.`);
}

module.exports = { betterExample };

if (require.main === module) main(process.argv[2]);
