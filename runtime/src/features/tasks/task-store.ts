/**
 * The tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663) for modern `tools/call`: the
 * server decides per call whether the work runs as a task. A call that settles within its
 * deadline answers normally (the spec's immediate-result shortcut, also how MRTR rounds stay
 * synchronous); a slower one answers `resultType: "task"` and keeps running, observed through
 * `tasks/get`, fed with client input through `tasks/update` and stopped through `tasks/cancel`.
 *
 * Where task state lives, and why: a task is *running work* — an upstream HTTP request in flight,
 * an AbortController that `tasks/cancel` must reach, a handler waiting for input — and that work
 * exists in exactly one process. So the live task stays in the bounded in-memory store of the
 * instance that runs it: at most `maxTasks` records, each dropped `ttlMs` after creation (an
 * unfinished one is aborted then); while the store is full, calls are answered synchronously
 * instead. With a shared state store (Redis, `--state`), every change of a task is also written
 * there as a snapshot (`onChange`), and other instances read, answer and cancel it through
 * shared-tasks.ts, so `tasks/*` may reach any instance behind a load balancer. Task ids are 128
 * random bits; in OAuth resource-server mode a task also belongs to the token subject that
 * created it, and other callers are told it does not exist. After a restart without a shared
 * store, old ids answer -32602 (task not found).
 */
import { randomBytes } from "node:crypto";
import { ErrorCode, RpcError } from "../../protocol/jsonrpc.js";
import type { InputRequest } from "../../api/mcp-types.js";
import { isRecord } from "../../protocol/own.js";
import type { TaskKeeper, TaskRound, TaskWork } from "./server-tasks.js";

/** A task's status; the last three are terminal. */
export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

/** Limits of the {@link TaskStore}. */
export interface TaskOptions {
  /** Deadline after which a generated tool's call becomes a task (default 2000). */
  afterMs?: number;
  /** How long a task is kept after creation (default 15 minutes); never dropped earlier. */
  ttlMs?: number;
  /** Suggested polling interval sent to clients (default 1 s). */
  pollIntervalMs?: number;
  /**
   * Most tasks kept at once (default 1000), finished ones included: each keeps its result until its
   * TTL ends, which the spec forbids cutting short. While full, calls run synchronously.
   */
  maxTasks?: number;
  /** Called with a task's snapshot when it is created and on every change (shared-tasks.ts writes it to Redis). */
  onChange?: (snapshot: TaskSnapshot) => void;
  /** Asked before a call becomes a task; false answers it synchronously (the shared store is down). */
  canCreate?: () => boolean;
}

/** What other instances need of a task: its `DetailedTask` view, owner and lifetime. Never a secret. */
export interface TaskSnapshot {
  taskId: string;
  /** The creating subject (OAuth mode), or undefined. */
  owner: string | undefined;
  /** Epoch milliseconds at which the task expires. */
  expiresAt: number;
  /** The `DetailedTask` as `tasks/get` shows it. */
  task: Record<string, unknown>;
}

/** Most consecutive `input_required` rounds one task may go through. */
const MAX_ROUNDS = 50;

type Outcome = { ok: true; value: Record<string, unknown> } | { ok: false; error: unknown };

interface TaskRecord {
  taskId: string;
  /** The authenticated subject that created the task (OAuth mode), or undefined. */
  owner: string | undefined;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: number;
  lastUpdatedAt: number;
  controller: AbortController;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
  /** Outstanding input requests by the key shown to the client. */
  pending: Map<string, { key: string; request: InputRequest }>;
  /** Answers gathered for the current round, by the work's own keys. */
  answers: Record<string, Record<string, unknown>>;
  /** Every key ever shown to the client: keys are unique over a task's lifetime. */
  usedKeys: Set<string>;
  /** Wakes the work up when the last outstanding request is answered (or the task ends). */
  wake?: () => void;
}

/** Bounded, expiring in-memory tasks; see the file comment for why this design. */
export class TaskStore implements TaskKeeper {
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  readonly afterMs: number;
  private readonly maxTasks: number;
  private readonly tasks = new Map<string, TaskRecord>();
  private readonly listeners = new Set<(task: Record<string, unknown>) => void>();
  private readonly onChange: ((snapshot: TaskSnapshot) => void) | undefined;
  private readonly canCreate: () => boolean;

  constructor(
    options: TaskOptions = {},
    private readonly now: () => number = Date.now,
  ) {
    this.ttlMs = Math.max(1, Math.floor(options.ttlMs ?? 15 * 60 * 1000));
    this.afterMs = options.afterMs ?? 2000;
    this.pollIntervalMs = Math.max(1, Math.floor(options.pollIntervalMs ?? 1000));
    this.maxTasks = Math.max(1, options.maxTasks ?? 1000);
    this.onChange = options.onChange;
    this.canCreate = options.canCreate ?? (() => true);
  }

  /** Number of tasks currently kept. */
  get size(): number {
    this.sweep();
    return this.tasks.size;
  }

  /**
   * Runs `work`. When it settles within `afterMs` its result (or error) is the answer; otherwise
   * the answer is a `CreateTaskResult` and the work goes on as a task. Until then, `requestSignal`
   * (the requester leaving) aborts the work; afterwards only `tasks/cancel` and expiry do.
   * `owner` (the caller's authenticated subject, if any) is the only caller that may see the task.
   */
  async start(
    work: TaskWork,
    afterMs: number,
    requestSignal: AbortSignal,
    owner?: string,
  ): Promise<Record<string, unknown>> {
    const controller = new AbortController();
    const onRequestAbort = (): void => controller.abort(requestSignal.reason);
    requestSignal.addEventListener("abort", onRequestAbort, { once: true });
    let detached = false;
    const first = settle(work({ signal: controller.signal, detached: () => detached }));
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<undefined>(
      (resolve) => (timer = setTimeout(() => resolve(undefined), Math.max(0, afterMs))),
    );
    const early = await Promise.race([first, deadline]);
    clearTimeout(timer);
    // Settled in time, or no room for another task: answer synchronously.
    const outcome = early ?? (this.makeRoom() && this.canCreate() ? undefined : await first);
    if (outcome) {
      requestSignal.removeEventListener("abort", onRequestAbort);
      if (!outcome.ok) throw outcome.error;
      return outcome.value;
    }
    detached = true;
    requestSignal.removeEventListener("abort", onRequestAbort);
    const at = this.now();
    const record: TaskRecord = {
      taskId: randomBytes(16).toString("base64url"),
      owner,
      status: "working",
      createdAt: at,
      lastUpdatedAt: at,
      controller,
      pending: new Map(),
      answers: {},
      usedKeys: new Set(),
    };
    this.tasks.set(record.taskId, record);
    this.changed(record);
    void this.drive(record, first, work);
    return { resultType: "task", ...this.envelope(record) };
  }

  /** `tasks/get`: the task with its status payload; -32602 for unknown, expired or someone else's ids. */
  get(taskId: unknown, caller?: string): Record<string, unknown> {
    return this.detailed(this.find(taskId, caller));
  }

  /**
   * `tasks/update`: delivers answers to outstanding input requests. Keys not outstanding are
   * ignored (SHOULD); the task resumes once every outstanding request is answered.
   */
  update(taskId: unknown, inputResponses: unknown, caller?: string): Record<string, never> {
    const record = this.find(taskId, caller);
    if (!isRecord(inputResponses) || !Object.values(inputResponses).every(isRecord)) {
      throw new RpcError(ErrorCode.InvalidParams, "inputResponses must be an object whose values are result objects");
    }
    if (record.status !== "input_required") return {};
    for (const [wireKey, answer] of Object.entries(inputResponses)) {
      const pending = record.pending.get(wireKey);
      if (!pending) continue;
      record.pending.delete(wireKey);
      record.answers[pending.key] = answer as Record<string, unknown>;
    }
    if (record.pending.size === 0) {
      this.transition(record, "working");
      record.wake?.();
    } else {
      this.touch(record);
    }
    return {};
  }

  /** `tasks/cancel`: stops the work (aborting its upstream request); terminal tasks stay as they are. */
  cancel(taskId: unknown, caller?: string): Record<string, never> {
    const record = this.find(taskId, caller);
    if (isTerminal(record.status)) return {};
    record.pending.clear();
    this.transition(record, "cancelled", "Cancelled by the client.");
    record.controller.abort(new Error("task cancelled"));
    record.wake?.();
    return {};
  }

  /** Calls `listener` with the detailed task on every status change (`notifications/tasks`). */
  subscribe(listener: (task: Record<string, unknown>) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Tasks still working (not waiting for input, not finished): the HTTP drain lets them finish. */
  get working(): number {
    let count = 0;
    for (const record of this.tasks.values()) if (record.status === "working") count++;
    return count;
  }

  /** True when `taskId` names a task this store keeps for `caller`. */
  has(taskId: string, caller?: string): boolean {
    this.sweep();
    const record = this.tasks.get(taskId);
    return record !== undefined && record.owner === caller;
  }

  /** Aborts every unfinished task (server shutdown). */
  abortAll(): void {
    for (const record of this.tasks.values()) if (!isTerminal(record.status)) this.cancel(record.taskId, record.owner);
  }

  /** Follows the work through its input rounds to a terminal status. */
  private async drive(record: TaskRecord, first: Promise<Outcome>, work: TaskWork): Promise<void> {
    let outcome = await first;
    for (let round = 1; ; round++) {
      if (isTerminal(record.status)) return; // cancelled or expired meanwhile
      if (!outcome.ok) return this.fail(record, outcome.error);
      const value = outcome.value;
      if (value.resultType !== "input_required") {
        record.result = value;
        return this.transition(record, "completed");
      }
      if (round > MAX_ROUNDS)
        return this.fail(
          record,
          new RpcError(ErrorCode.InternalError, `the task asked for input more than ${MAX_ROUNDS} times`),
        );
      const answers = await this.awaitInput(
        record,
        isRecord(value.inputRequests) ? (value.inputRequests as Record<string, InputRequest>) : {},
      );
      if (!answers) return;
      const requestState = typeof value.requestState === "string" ? value.requestState : undefined;
      outcome = await settle(
        work({ signal: record.controller.signal, detached: () => true, inputResponses: answers, requestState }),
      );
    }
  }

  /** Parks the task in `input_required` until every request is answered; undefined if it ends first. */
  private awaitInput(
    record: TaskRecord,
    requests: Record<string, InputRequest>,
  ): Promise<Record<string, Record<string, unknown>> | undefined> {
    record.answers = {};
    for (const [key, request] of Object.entries(requests)) {
      let wireKey = key;
      for (let n = 2; record.usedKeys.has(wireKey); n++) wireKey = `${key}~${n}`;
      record.usedKeys.add(wireKey);
      record.pending.set(wireKey, { key, request });
    }
    if (record.pending.size === 0) return Promise.resolve({}); // state-only round: run again at once
    this.transition(record, "input_required");
    return new Promise((resolve) => {
      record.wake = () => {
        record.wake = undefined;
        resolve(isTerminal(record.status) ? undefined : record.answers);
      };
    });
  }

  private fail(record: TaskRecord, error: unknown): void {
    record.error =
      error instanceof RpcError
        ? { code: error.code, message: error.message, ...(error.data !== undefined ? { data: error.data } : {}) }
        : { code: ErrorCode.InternalError, message: "Internal error" };
    this.transition(record, "failed", record.error.message);
  }

  private transition(record: TaskRecord, status: TaskStatus, statusMessage?: string): void {
    record.status = status;
    record.statusMessage = statusMessage;
    this.touch(record);
    const task = this.detailed(record);
    for (const listener of this.listeners) listener(task);
  }

  private touch(record: TaskRecord): void {
    // Strictly increasing, so clients can order updates even within one millisecond.
    record.lastUpdatedAt = Math.max(this.now(), record.lastUpdatedAt + 1);
    this.changed(record);
  }

  /** Hands the task's new snapshot to `onChange` (when there is a shared store). */
  private changed(record: TaskRecord): void {
    this.onChange?.({
      taskId: record.taskId,
      owner: record.owner,
      expiresAt: record.createdAt + this.ttlMs,
      task: this.detailed(record),
    });
  }

  private find(taskId: unknown, caller: string | undefined): TaskRecord {
    if (typeof taskId !== "string") throw new RpcError(ErrorCode.InvalidParams, "taskId must be a string");
    this.sweep();
    const record = this.tasks.get(taskId);
    if (!record || record.owner !== caller)
      throw new RpcError(ErrorCode.InvalidParams, "Failed to retrieve task: Task not found");
    return record;
  }

  /** Drops expired tasks, aborting unfinished ones. */
  private sweep(): void {
    const now = this.now();
    for (const record of this.tasks.values()) {
      if (record.createdAt + this.ttlMs > now) continue;
      this.tasks.delete(record.taskId);
      if (!isTerminal(record.status)) {
        record.status = "failed";
        record.controller.abort(new Error("task expired"));
        record.wake?.();
      }
    }
  }

  /** True when a new task fits once expired ones are dropped (live ones are never evicted early). */
  private makeRoom(): boolean {
    this.sweep();
    return this.tasks.size < this.maxTasks;
  }

  /** The `Task` fields shared by every shape. */
  private envelope(record: TaskRecord): Record<string, unknown> {
    const task: Record<string, unknown> = {
      taskId: record.taskId,
      status: record.status,
      createdAt: new Date(record.createdAt).toISOString(),
      lastUpdatedAt: new Date(record.lastUpdatedAt).toISOString(),
      ttlMs: this.ttlMs,
      pollIntervalMs: this.pollIntervalMs,
    };
    if (record.statusMessage !== undefined) task.statusMessage = record.statusMessage;
    return task;
  }

  /** `DetailedTask`: the envelope plus the payload its status calls for. */
  private detailed(record: TaskRecord): Record<string, unknown> {
    const task = this.envelope(record);
    if (record.status === "input_required")
      task.inputRequests = Object.fromEntries([...record.pending].map(([wireKey, { request }]) => [wireKey, request]));
    if (record.status === "completed") task.result = record.result;
    if (record.status === "failed" && record.error) task.error = record.error;
    return task;
  }
}

function settle(work: Promise<Record<string, unknown>>): Promise<Outcome> {
  return work.then(
    (value): Outcome => ({ ok: true, value }),
    (error: unknown): Outcome => ({ ok: false, error }),
  );
}

function isTerminal(status: TaskStatus): boolean {
  return status === "completed" || status === "failed" || status === "cancelled";
}
