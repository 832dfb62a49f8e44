import { DatabaseUnavailableError } from './database';

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
  private writing = false;

  constructor(
    /** Writes the items in one statement; answers one result per item, in their order. */
    private readonly write: (items: Item[]) => Promise<Result[]>,
    /** Items per statement at most, within the database's parameter limit. */
    private readonly maxItems: number,
  ) {}

  submit(item: Item): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (!this.writing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.maxItems);
      await this.writeBatch(batch);
    }
    this.writing = false;
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
