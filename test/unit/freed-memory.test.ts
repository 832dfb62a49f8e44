import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

import { returnFreedMemory } from '../../infrastructure/documents/freed-memory';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;
const residentMb = () => process.memoryUsage.rss() / 1_048_576;

describe('returning freed memory to the system', () => {
  it('hands back the pages of blocks freed between blocks still held, which freeing alone keeps', async () => {
    // 64 KB buffers come from malloc's arenas; every other one stays alive, so none of the freed
    // half lies at an arena's top, where free() would give it back by itself.
    const baseline = residentMb();
    const held: Buffer[] = [];
    let freed: Buffer[] = [];
    for (let index = 0; index < 2_000; index++) {
      const buffer = Buffer.allocUnsafeSlow(64 * 1024).fill(1);
      (index % 2 === 0 ? held : freed).push(buffer);
    }
    freed = [];
    collectGarbage();
    await new Promise((resolve) => setTimeout(resolve, 200));
    collectGarbage();
    const beforeReturn = residentMb();
    expect(beforeReturn - baseline).toBeGreaterThan(96);

    expect(returnFreedMemory()).toBe(true);

    expect(beforeReturn - residentMb()).toBeGreaterThan(32);
    expect(held).toHaveLength(1_000);
  });
});
