/** What a request is sent with: its share of the question's time, its cancellation, who hears of its progress and its time. */

export interface RequestOptions {
  timeoutMs: number;
  /** The whole time the user allowed (--timeout), named when it runs out. */
  budgetMs?: number;
  signal?: AbortSignal;
  /** Told, after a second and then each second, what the request is waiting for (a person at a terminal). */
  progress?: (text: string) => void;
  /** Where the time from sending a request to its answer is added up: what of a question is the servers' own. */
  serverTime?: ServerTime;
}

/** The time a question's requests spent with their servers, so the daemon can tell its own part from theirs. */
export class ServerTime {
  ms = 0;
  requests = 0;
  add(since: number): void {
    this.ms += performance.now() - since;
    this.requests++;
  }
}
