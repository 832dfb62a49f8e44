import { Database } from '../storage/database';

/**
 * When cases began to carry their account binding in their memo (migration 0009), read once: cases
 * started before it were started by an API that wrote none, and stay readable without one.
 */
export class CaseBindingEpoch {
  private beganAt?: Promise<number>;

  constructor(private readonly db: Database) {}

  async startedBefore(startTime: Date): Promise<boolean> {
    this.beganAt ??= this.load();
    return startTime.getTime() < (await this.beganAt);
  }

  private async load(): Promise<number> {
    try {
      const [row] = await this.db.query<{ began_at: string }>('SELECT began_at FROM case_binding_epoch');
      return Date.parse(row!.began_at);
    } catch (error) {
      // An outage answers this read with 503; the next read asks again.
      this.beganAt = undefined;
      throw error;
    }
  }
}
