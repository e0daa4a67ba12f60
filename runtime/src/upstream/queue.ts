/**
 * The upstream queue: at most `concurrency` calls on the network at once, the others wait in order
 * (an aborted one leaves). Calls that name a key (the upstream host) also wait for one of that key's
 * `perKey` slots and, with a `rate`, for their turn at it, so that a burst of parallel calls reaches
 * an API as a steady stream instead of drawing 429s. A few lines rather than p-queue: a server
 * installs only ajv and got.
 */
import type { Cancellation } from "../protocol/cancellation.js";

/** Limits per key (upstream host). */
export interface QueueLimits {
  /** Calls of one key on the network at once. */
  perKey?: number | undefined;
  /** Calls of one key started per second at most: each starts 1000/rate ms after the one before at the soonest. */
  rate?: number | undefined;
}

/** One key's own queue; with a rate, its turns (one call at a time) and its next call's soonest start. */
interface Lane {
  queue: UpstreamQueue;
  turns?: UpstreamQueue;
  nextStart: number;
}

export class UpstreamQueue {
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  private readonly lanes = new Map<string, Lane>();

  constructor(
    readonly concurrency: number,
    private readonly limits: QueueLimits = {},
  ) {}

  /**
   * Runs `exchange` in a slot, after waiting for one when all are taken (with `key`: a slot of that
   * key first, and its turn under the rate); `cancellation` takes a waiting call out. Without a rate
   * the key's slot leads straight to this queue's: no async step between them.
   */
  run<T>(exchange: () => Promise<T>, cancellation: Cancellation | undefined, key?: string): Promise<T> {
    const lane = key !== undefined && (this.limits.perKey || this.limits.rate) ? this.lane(key) : undefined;
    if (!lane) return this.runInSlot(exchange, cancellation);
    if (!this.limits.rate) return lane.queue.runInSlot(() => this.runInSlot(exchange, cancellation), cancellation);
    return lane.queue.runInSlot(() => this.paced(lane, exchange, cancellation), cancellation);
  }

  /** Runs `exchange` once a slot is free; not async: a call that finds a free slot costs one promise here. */
  private runInSlot<T>(exchange: () => Promise<T>, cancellation: Cancellation | undefined): Promise<T> {
    if (this.running >= this.concurrency) return this.slot(exchange, cancellation);
    this.running += 1;
    return this.hold(exchange);
  }

  /**
   * Runs `exchange` (an async function: it rejects, it does not throw) in the slot taken for it; the
   * slot is released however it ends. Its own promise is handed back (not `finally`'s: three more).
   */
  private hold<T>(exchange: () => Promise<T>): Promise<T> {
    const running = exchange();
    void running.then(this.release, this.release);
    return running;
  }

  /** The slot goes to the first waiting call, or is freed. */
  private readonly release = (): void => (this.waiting.length > 0 ? this.waiting.shift()!() : void (this.running -= 1));

  private lane(key: string): Lane {
    let lane = this.lanes.get(key);
    if (!lane) {
      lane = { queue: new UpstreamQueue(this.limits.perKey ?? Infinity), nextStart: 0 };
      this.lanes.set(key, lane);
    }
    return lane;
  }

  /**
   * Runs `exchange` on its turn in the lane: the lane's calls take it one at a time, in order, and hold it
   * until their exchange starts (or they leave), and the next may start 1000/rate ms after that actual start.
   * Nothing is booked up front, so a call whose timer fired late (a blocked event loop, the shared cap full)
   * is not followed closely by the ones behind it. By the clock rather than one timer: a timer set late in a
   * long turn of the event loop fires early against it.
   */
  private async paced<T>(lane: Lane, exchange: () => Promise<T>, cancellation: Cancellation | undefined): Promise<T> {
    let call!: Promise<T>;
    await (lane.turns ??= new UpstreamQueue(1)).runInSlot(async () => {
      for (let rest; (rest = lane.nextStart - performance.now()) > 0; ) await wait(rest, cancellation);
      await new Promise<void>((started) => {
        const start = () => (started(), (lane.nextStart = performance.now() + 1000 / this.limits.rate!), exchange());
        (call = this.runInSlot(start, cancellation)).catch(started);
      });
    }, cancellation);
    return call;
  }

  /**
   * Waits for a slot, then runs `exchange` in it; the call's promise settles with the exchange's. The slot
   * starts the exchange itself (not a `then` on a "slot free" promise, whose callback returns the exchange's
   * promise: adopting it costs two promises and two microtask turns more per waiting call).
   */
  private slot<T>(exchange: () => Promise<T>, cancellation: Cancellation | undefined): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (cancellation?.cancelled) return reject(cancellation.cancelled.reason);
      const start = (): void => {
        stopWatching?.();
        this.hold(exchange).then(resolve, reject);
      };
      this.waiting.push(start);
      // Only a waiting call is taken out; once started, the exchange answers a cancellation itself.
      const stopWatching = cancellation?.onCancel(() => {
        const at = this.waiting.indexOf(start);
        if (at < 0) return;
        this.waiting.splice(at, 1);
        reject(cancellation.cancelled!.reason);
      });
    });
  }
}

/** Resolves after `ms`, or rejects when `cancellation` comes first. */
function wait(ms: number, cancellation: Cancellation | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (cancellation?.cancelled) return reject(cancellation.cancelled.reason);
    const timer = setTimeout(() => (stop?.(), resolve()), ms);
    const stop = cancellation?.onCancel(() => (clearTimeout(timer), reject(cancellation.cancelled!.reason)));
  });
}
