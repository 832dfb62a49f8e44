import { load } from 'koffi';

import { returnFreedMemory } from '../../infrastructure/documents/freed-memory';

const { header } = process.report.getReport() as { header: { glibcVersionRuntime?: string } };
const onGlibc = header.glibcVersionRuntime ? describe : describe.skip;
const residentMb = () => process.memoryUsage.rss() / 1_048_576;

onGlibc('returning freed memory to the system (glibc)', () => {
  it('hands back the pages of blocks freed between blocks still held, which freeing alone keeps', async () => {
    // The blocks come from glibc itself, so nothing but this test frees them, and at once: 64 KB,
    // below the mmap threshold, so from the arenas. Every other one stays, so none of the freed half
    // lies at an arena's top, where free() would give it back by itself.
    const libc = load('libc.so.6');
    const malloc = libc.func('void *malloc(size_t size)');
    const memset = libc.func('void *memset(void *block, int value, size_t size)');
    const free = libc.func('void free(void *block)');
    const size = 64 * 1024;
    const baseline = residentMb();
    const blocks = Array.from({ length: 2_000 }, () => {
      const block: unknown = malloc(size);
      memset(block, 1, size);
      return block;
    });
    blocks.filter((_, index) => index % 2 === 1).forEach((block) => free(block));
    const beforeReturn = residentMb();
    expect(beforeReturn - baseline).toBeGreaterThan(96);

    expect(await returnFreedMemory()).toBe(true);

    expect(beforeReturn - residentMb()).toBeGreaterThan(48);
    blocks.filter((_, index) => index % 2 === 0).forEach((block) => free(block));
  });
});
