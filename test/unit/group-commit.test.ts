import { GroupCommit } from '../../infrastructure/storage/group-commit';

/** A write the test finishes by hand: each call is one write, with its items and how to end it. */
class ManualWrites {
  readonly calls: Array<{ items: string[]; finish: () => void; fail: (error: Error) => void }> = [];

  readonly write = (items: string[]): Array<Promise<string>> => {
    let finish!: () => void;
    let fail!: (error: Error) => void;
    const done = new Promise<void>((resolve, reject) => {
      finish = resolve;
      fail = reject;
    });
    this.calls.push({ items, finish, fail });
    return items.map((item) => done.then(() => `${item} written`));
  };
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('a group commit', () => {
  it('writes a lone item at once', async () => {
    const writes = new ManualWrites();
    const group = new GroupCommit(writes.write, 10);
    const answer = group.submit('a');
    expect(writes.calls.map((call) => call.items)).toEqual([['a']]);
    writes.calls[0]!.finish();
    expect(await answer).toBe('a written');
  });

  it('writes the items that arrived during a write together once it ends, each answered its own result', async () => {
    const writes = new ManualWrites();
    const group = new GroupCommit(writes.write, 10);
    const first = group.submit('a');
    const later = [group.submit('b'), group.submit('c')];
    writes.calls[0]!.finish();
    await first;
    await settled();
    expect(writes.calls.map((call) => call.items)).toEqual([['a'], ['b', 'c']]);
    writes.calls[1]!.finish();
    expect(await Promise.all(later)).toEqual(['b written', 'c written']);
  });

  it('puts at most its limit of items in one write', async () => {
    const writes = new ManualWrites();
    const group = new GroupCommit(writes.write, 2);
    void group.submit('a');
    const later = ['b', 'c', 'd'].map((item) => group.submit(item));
    writes.calls[0]!.finish();
    await settled();
    writes.calls.slice(1).forEach((call) => call.finish());
    await settled();
    writes.calls.slice(1).forEach((call) => call.finish());
    await Promise.all(later);
    expect(writes.calls.map((call) => call.items)).toEqual([['a'], ['b', 'c'], ['d']]);
  });

  it('does not hold items behind a write that never ends for longer than its patience', async () => {
    const writes = new ManualWrites();
    const group = new GroupCommit(writes.write, 10, 5);
    void group.submit('stuck');
    const next = group.submit('next');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(writes.calls.map((call) => call.items)).toEqual([['stuck'], ['next']]);
    writes.calls[1]!.finish();
    expect(await next).toBe('next written');
  });

  it('fails the callers of a failed write, and writes the next items as before', async () => {
    const writes = new ManualWrites();
    const group = new GroupCommit(writes.write, 10);
    const failed = group.submit('a');
    writes.calls[0]!.fail(new Error('refused'));
    await expect(failed).rejects.toThrow('refused');
    await settled();
    const next = group.submit('b');
    expect(writes.calls.map((call) => call.items)).toEqual([['a'], ['b']]);
    writes.calls[1]!.finish();
    expect(await next).toBe('b written');
  });
});
