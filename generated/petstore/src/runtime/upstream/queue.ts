// @mcp-gen/runtime 0.1.0, vendored by mcp-gen. Do not edit: changes are lost when the server is regenerated.
/**
 * The server's upstream queue: at most `concurrency` upstream calls on the network at once, the
 * others wait in FIFO order (p-queue). p-queue is imported with the first call, not at start
 * (lazy-modules.ts): calls that arrive before it is loaded wait for the same import, then enter the
 * queue in their order, so the bound holds from the first call on.
 */
import type PQueue from "p-queue";
import { loadPQueue } from "./lazy-modules.js";

export class UpstreamQueue {
  private queue: PQueue | undefined;
  private loading: Promise<PQueue> | undefined;

  constructor(readonly concurrency: number) {}

  /**
   * Runs `exchange` in a slot. A call that finds a free slot starts inside `add` (p-queue runs it
   * synchronously) and is added without the signal, which only takes a *waiting* call out of the
   * queue (p-queue then rejects it); a running exchange is aborted through the same signal by its
   * caller. That saves p-queue's two abort listeners and a Promise.race per call.
   */
  async run<T>(exchange: () => Promise<T>, signal: AbortSignal | undefined): Promise<T> {
    const queue = this.queue ?? (await this.load());
    const waits = queue.isPaused || queue.size > 0 || queue.pending >= queue.concurrency;
    return queue.add(exchange, waits && signal ? { signal } : {});
  }

  private load(): Promise<PQueue> {
    return (this.loading ??= loadPQueue().then(
      ({ default: PQueueClass }) => (this.queue = new PQueueClass({ concurrency: this.concurrency })),
    ));
  }
}
