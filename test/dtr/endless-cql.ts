/** ELM that runs for minutes, as a pathological payer library would: what the pool's time limit cuts. */
const int = (value: number) => ({
  type: 'Literal',
  valueType: '{urn:hl7-org:elm-types:r1}Integer',
  value: String(value),
});
const numbers = { type: 'List', element: Array.from({ length: 400 }, (_, index) => int(index + 1)) };
const alias = (name: string) => ({ type: 'AliasRef', name });
const query = (name: string, where: unknown) => ({
  type: 'Query',
  source: [{ alias: name, expression: numbers }],
  relationship: [],
  where: where,
});

/**
 * A define no number satisfies (A × B + C = −1 over 1…400, three deep): 64 million comparisons,
 * minutes of cql-execution, with a thread blocked all along as a pathological payer library would.
 */
export const ENDLESS_DEFINE = {
  name: 'Endless',
  context: 'Patient',
  accessLevel: 'Public',
  expression: {
    type: 'Exists',
    operand: query('A', {
      type: 'Exists',
      operand: query('B', {
        type: 'Exists',
        operand: query('C', {
          type: 'Equal',
          operand: [
            {
              type: 'Add',
              operand: [{ type: 'Multiply', operand: [alias('A'), alias('B')] }, alias('C')],
            },
            int(-1),
          ],
        }),
      }),
    }),
  },
};
