import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

const ACTIVITIES = path.join(__dirname, '..', '..', 'activities');
const read = (file: string) => readFileSync(path.join(ACTIVITIES, file), 'utf8');

/**
 * Each `activities/<group>.activities.ts` exports one factory of the activities its workflows proxy
 * by type. A workflow proxying a group the worker never registered compiles, and fails only when a
 * case runs it ("activity not registered"); these checks fail first.
 */
const FACTORY = /^export const (create\w+Activities) = /m;
const groups = readdirSync(ACTIVITIES)
  .filter((file) => file.endsWith('.activities.ts'))
  .map((file) => ({ file, factory: FACTORY.exec(read(file))?.[1] }));

describe("the worker's activities", () => {
  it.each(groups)('$file exports its group as a create…Activities factory', ({ factory }) => {
    expect(factory).toBeDefined();
  });

  it.each(groups)('$file is registered with the worker by createActivities', ({ factory }) => {
    const registered = read('index.ts');
    expect(registered).toMatch(new RegExp(`\\.\\.\\.${factory}\\(|\\b\\w+ = ${factory}\\(`));
  });
});
