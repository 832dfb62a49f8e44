/**
 * A case event's id, derived from what the event announces rather than drawn at random. A run that
 * Temporal Web's Reset re-executes draws other random numbers (its seed becomes the new run's id),
 * yet announces the same moves: derived ids let `webhook_events` and receivers (`X-Webhook-Id`)
 * recognise them, so nothing is sent twice.
 */
export function caseEventId(caseId: string, occurrence: string): string {
  return `evt_${hash128(`${caseId}\n${occurrence}`)}`;
}

/**
 * The id of a case's final notification, whichever final status and run announce it: a case tells
 * its provider how it ended once, and a later run (a Reset) cannot tell it otherwise.
 */
export function finalCaseEventId(caseId: string): string {
  return caseEventId(caseId, 'final');
}

/**
 * 128 bits from four 32-bit multiply-xorshift lanes, each seeded and stepped differently and mixed
 * together at the end. Workflows cannot reach node:crypto, and the inputs are our own case ids and
 * status names, not an adversary's, so a non-cryptographic hash keeps ids apart.
 */
function hash128(text: string): string {
  const lanes = [0x811c9dc5, 0x9e3779b9, 0x85ebca6b, 0xc2b2ae35];
  const multipliers = [0x01000193, 0x5bd1e995, 0x27d4eb2f, 0x165667b1];
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    for (let lane = 0; lane < 4; lane += 1) {
      const mixed = Math.imul(lanes[lane]! ^ code, multipliers[lane]!);
      lanes[lane] = mixed ^ (mixed >>> 15);
    }
  }
  return lanes
    .map((lane, index) => avalanche(lane ^ Math.imul(lanes[(index + 1) % 4]!, 0x9e3779b1) ^ text.length))
    .map((lane) => (lane >>> 0).toString(16).padStart(8, '0'))
    .join('');
}

function avalanche(value: number): number {
  let mixed = value;
  mixed = Math.imul(mixed ^ (mixed >>> 16), 0x85ebca6b);
  mixed = Math.imul(mixed ^ (mixed >>> 13), 0xc2b2ae35);
  return mixed ^ (mixed >>> 16);
}
