/** A request's cancellation: a flag and callbacks; an `AbortSignal` (~14 µs a request) only for code reading one. */
export class Cancellation {
  /** Set once cancelled, with the reason `signal` aborts with. */
  cancelled: { reason: unknown } | undefined;
  /** The first callback, kept without a Set: most requests have one or two, and most are never cancelled. */
  private first: (() => void) | undefined;
  /** Every callback once more than one was added (the first included, so they run in the order added). */
  private callbacks: Set<() => void> | undefined;
  private controller: AbortController | undefined;

  /** With `parent` (a signal, or a cancellation such as a transport's "the requester is gone"): cancelled with it. */
  constructor(parent?: AbortSignal | Cancellation) {
    if (parent instanceof Cancellation) {
      if (parent.cancelled) this.cancel(parent.cancelled.reason);
      else parent.onCancel(() => this.cancel(parent.cancelled!.reason));
    } else if (parent?.aborted) this.cancel(parent.reason);
    else parent?.addEventListener("abort", () => this.cancel(parent.reason), { once: true });
  }

  /** Cancels (once): runs the callbacks, then aborts the signal if one was made. */
  cancel(reason: unknown): void {
    if (this.cancelled) return;
    this.cancelled = { reason };
    this.first?.();
    for (const callback of this.callbacks ?? []) callback();
    this.controller?.abort(reason);
  }

  /** Runs `callback` when cancelled; returns what takes it off again. */
  onCancel(callback: () => void): () => void {
    if (!this.first && !this.callbacks) this.first = callback;
    else {
      this.callbacks ??= new Set(this.first ? [this.first] : []);
      this.first = undefined;
      this.callbacks.add(callback);
    }
    return () => {
      if (this.first === callback) this.first = undefined;
      else this.callbacks?.delete(callback);
    };
  }

  /** An `AbortSignal` that aborts with this cancellation, made on first use. */
  get signal(): AbortSignal {
    this.controller ??= new AbortController();
    if (this.cancelled) this.controller.abort(this.cancelled.reason);
    return this.controller.signal;
  }
}
