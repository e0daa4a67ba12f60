/**
 * The upstream queue: at most `concurrency` calls on the network, the others wait in order (an
 * aborted one leaves). A few lines rather than p-queue: a server installs only ajv and got.
 */
export class UpstreamQueue {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly concurrency: number) {}

  /** Runs `exchange` in a slot, after waiting for one when all are taken; `signal` takes a waiting call out. */
  async run<T>(exchange: () => Promise<T>, signal: AbortSignal | undefined): Promise<T> {
    if (this.running < this.concurrency) this.running += 1;
    else await this.slot(signal);
    try {
      return await exchange();
    } finally {
      // The slot goes to the first waiting call, or is freed.
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }

  private slot(signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const take = (): void => {
        signal?.removeEventListener("abort", leave);
        resolve();
      };
      const leave = (): void => {
        this.waiting.splice(this.waiting.indexOf(take) >>> 0, 1);
        reject(signal!.reason);
      };
      this.waiting.push(take);
      signal?.addEventListener("abort", leave, { once: true });
    });
  }
}
