import { DatabaseUnavailableError } from './database';

/**
 * How long writes wait for the one in flight before they go anyway: ordinary statements end well
 * within it, so they still share one; a statement held up (a locked row, a database that stopped
 * answering) never holds the writes behind it past their own timeouts.
 */
const PATIENCE_MS = 50;

/**
 * Writes that arrive while an earlier one is in flight wait for it, then go to the database together
 * as one statement: under concurrent requests each pays a share of one round trip and one commit
 * instead of its own, and a lone write goes at once, as before. Each caller still waits until its
 * own item is committed, so nothing is answered before it is written.
 *
 * When the database refuses a batch, each of its items is written alone, so one item it refuses fails
 * only its own caller; when the database is unavailable, the whole batch fails at once.
 */
export class GroupCommit<Item, Result> {
  private waiting: Waiter<Item, Result>[] = [];
  private writesInFlight = 0;
  private latestWriteStartedAt = 0;
  private patienceTimer: NodeJS.Timeout | undefined;

  constructor(
    /** Writes the items in one statement; answers one result per item, in their order. */
    private readonly write: (items: Item[]) => Promise<Result[]>,
    /** Items per statement at most, within the database's parameter limit. */
    private readonly maxItems: number,
  ) {}

  submit(item: Item): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      this.writeWhenDue();
    });
  }

  private writeWhenDue(): void {
    while (this.waiting.length > 0) {
      const waited = Date.now() - this.latestWriteStartedAt;
      if (this.writesInFlight > 0 && waited < PATIENCE_MS) {
        this.patienceTimer ??= setTimeout(() => {
          this.patienceTimer = undefined;
          this.writeWhenDue();
        }, PATIENCE_MS - waited).unref();
        return;
      }
      const batch = this.waiting.splice(0, this.maxItems);
      this.writesInFlight += 1;
      this.latestWriteStartedAt = Date.now();
      void this.writeBatch(batch).finally(() => {
        this.writesInFlight -= 1;
        this.writeWhenDue();
      });
    }
  }

  private async writeBatch(batch: Waiter<Item, Result>[]): Promise<void> {
    try {
      const results = await this.write(batch.map((waiter) => waiter.item));
      batch.forEach((waiter, index) => waiter.resolve(results[index]!));
    } catch (error) {
      if (batch.length === 1 || error instanceof DatabaseUnavailableError) {
        for (const waiter of batch) waiter.reject(error);
        return;
      }
      for (const waiter of batch) await this.writeBatch([waiter]);
    }
  }
}

interface Waiter<Item, Result> {
  item: Item;
  resolve: (result: Result) => void;
  reject: (error: unknown) => void;
}
