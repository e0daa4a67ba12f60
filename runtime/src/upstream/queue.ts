/**
 * The upstream queue: at most `concurrency` calls on the network, the others wait in order (an
 * aborted one leaves). A few lines rather than p-queue: a server installs only ajv and got.
 */
import type { Cancellation } from "../protocol/cancellation.js";

export class UpstreamQueue {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly concurrency: number) {}

  /** Runs `exchange` in a slot, after waiting for one when all are taken; `cancellation` takes a waiting call out. */
  async run<T>(exchange: () => Promise<T>, cancellation: Cancellation | undefined): Promise<T> {
    if (this.running < this.concurrency) this.running += 1;
    else await this.slot(cancellation);
    try {
      return await exchange();
    } finally {
      // The slot goes to the first waiting call, or is freed.
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }

  private slot(cancellation: Cancellation | undefined): Promise<void> {
    return new Promise((resolve, reject) => {
      if (cancellation?.cancelled) return reject(cancellation.cancelled.reason);
      this.waiting.push(resolve);
      // Cancelled once it has its slot, the call is no longer waiting and its promise is settled: no effect.
      cancellation?.onCancel(() => {
        this.waiting.splice(this.waiting.indexOf(resolve) >>> 0, 1);
        reject(cancellation.cancelled!.reason);
      });
    });
  }
}
