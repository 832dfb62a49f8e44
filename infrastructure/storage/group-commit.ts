import { performance } from 'node:perf_hooks';

/**
 * How long writes wait for the one in flight before they go anyway: ordinary statements end well
 * within it, so they still share one; a statement held up (a locked row, a database that stopped
 * answering) never holds the writes queued behind it past their own timeouts.
 */
const DEFAULT_PATIENCE_MS = 50;

/**
 * Writes that arrive while an earlier one is in flight wait for it, then go to the database
 * together: under concurrent requests each pays a share of one round trip and one commit instead of
 * its own, and a lone write goes at once, as before. Each caller still waits until its own item is
 * committed, so nothing is answered before it is written.
 *
 * `write` answers one outcome per item, so a writer decides what an item's failure means for the
 * others (the audit trail writes each record of a refused batch again on its own) and an item whose
 * statement returns early is answered without waiting for the rest of its batch.
 */
export class GroupCommit<Item, Result> {
  private waiting: Waiter<Item, Result>[] = [];
  private writesInFlight = 0;
  private latestWriteStartedAt = 0;
  private patienceTimer: NodeJS.Timeout | undefined;

  constructor(
    /** Starts writing the items; answers each item's outcome, in their order. */
    private readonly write: (items: Item[]) => Array<Promise<Result>>,
    /** Items per write at most. */
    private readonly maxItems: number,
    private readonly patienceMs = DEFAULT_PATIENCE_MS,
  ) {}

  submit(item: Item): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      this.writeWhenDue();
    });
  }

  private writeWhenDue(): void {
    while (this.waiting.length > 0) {
      const waited = performance.now() - this.latestWriteStartedAt;
      if (this.writesInFlight > 0 && waited < this.patienceMs) {
        this.patienceTimer ??= setTimeout(() => {
          this.patienceTimer = undefined;
          this.writeWhenDue();
        }, this.patienceMs - waited).unref();
        return;
      }
      const batch = this.waiting.splice(0, this.maxItems);
      this.writesInFlight += 1;
      this.latestWriteStartedAt = performance.now();
      void this.settle(batch).finally(() => {
        this.writesInFlight -= 1;
        clearTimeout(this.patienceTimer);
        this.patienceTimer = undefined;
        this.writeWhenDue();
      });
    }
  }

  /** Answers each waiter as its own outcome arrives; done once all of them have. */
  private async settle(batch: Waiter<Item, Result>[]): Promise<void> {
    let outcomes: Array<Promise<Result>>;
    try {
      outcomes = this.write(batch.map((waiter) => waiter.item));
    } catch (error) {
      outcomes = batch.map(() => Promise.reject(error));
    }
    await Promise.allSettled(
      batch.map((waiter, index) =>
        (
          outcomes[index] ?? Promise.reject(new Error('A group write answered fewer outcomes than items'))
        ).then(waiter.resolve, waiter.reject),
      ),
    );
  }
}

interface Waiter<Item, Result> {
  item: Item;
  resolve: (result: Result) => void;
  reject: (error: unknown) => void;
}
