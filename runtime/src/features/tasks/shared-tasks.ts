/**
 * Tasks across instances behind a load balancer, over a shared state store (Redis). The instance
 * that runs a task keeps it live in its own TaskStore (the upstream request, its AbortController,
 * the handler waiting for input) and writes a snapshot of every change to the store. Any instance
 * answers `tasks/get` from the snapshot, and forwards `tasks/update` and `tasks/cancel` to the
 * running instance as a command over pub/sub: a cancellation that reaches instance B aborts the
 * upstream request on instance A. A task whose instance stopped (killed, or cut off from the store
 * longer than the heartbeat's lifetime) is reported failed by the first instance that reads it.
 *
 * What the snapshot holds is what `tasks/get` shows (status, result, input requests) plus the
 * running instance's id and a hash of the creating OAuth subject; never a credential or header.
 */
import { createHash } from "node:crypto";
import { InstanceSilentError, type Cluster, type Command } from "../../state/cluster-slot.js";
import { ErrorCode, RpcError } from "../../protocol/jsonrpc.js";
import type { Logger } from "../../protocol/logger.js";
import { isRecord } from "../../protocol/own.js";
import { StateUnavailableError } from "../../state/state.js";
import type { TaskSnapshot, TaskStore } from "./task-store.js";
import type { TaskKeeper, TaskWork } from "./server-tasks.js";

/** A task as stored: its snapshot and the instance running it. */
interface StoredTask {
  /** The instance running the task. */
  instance: string;
  /** sha256 of the creating subject (OAuth mode), or null. */
  owner: string | null;
  expiresAt: number;
  task: Record<string, unknown>;
}

const TERMINAL = new Set(["completed", "failed", "cancelled"]);

/** The tasks of one instance among several: local work, shared snapshots (see the file comment). */
export class SharedTasks implements TaskKeeper {
  constructor(
    private readonly local: TaskStore,
    private readonly cluster: Cluster,
    private readonly logger: Logger,
  ) {}

  get afterMs(): number {
    return this.local.afterMs;
  }

  get working(): number {
    return this.local.working;
  }

  start(work: TaskWork, afterMs: number, signal: AbortSignal, owner?: string): Promise<Record<string, unknown>> {
    return this.local.start(work, afterMs, signal, owner);
  }

  subscribe(listener: (task: Record<string, unknown>) => void): () => void {
    return this.local.subscribe(listener);
  }

  abortAll(): void {
    this.local.abortAll();
  }

  /** Writes a changed local task's snapshot (called by the TaskStore, in order of the changes). */
  write(snapshot: TaskSnapshot): void {
    const stored: StoredTask = {
      instance: this.cluster.id,
      owner: ownerHash(snapshot.owner),
      expiresAt: snapshot.expiresAt,
      task: snapshot.task,
    };
    const ttl = snapshot.expiresAt - Date.now();
    if (ttl <= 0) return;
    this.cluster.store.set(taskKey(snapshot.taskId), JSON.stringify(stored), ttl).catch((error: unknown) => {
      this.logger.warn("task snapshot not written to the state store", {
        error: error instanceof Error ? error.message : String(error),
      });
    });
  }

  /** Handles a command another instance sent about a task this one runs. */
  async command(command: Command): Promise<unknown> {
    const caller = typeof command.caller === "string" ? command.caller : undefined;
    if (command.type === "tasks/update") return this.local.update(command.taskId, command.inputResponses, caller);
    if (command.type === "tasks/cancel") return this.local.cancel(command.taskId, caller);
    throw new RpcError(ErrorCode.InternalError, `unknown command ${String(command.type)}`);
  }

  /** `tasks/get` on any instance. */
  async get(taskId: unknown, caller: string | undefined): Promise<Record<string, unknown>> {
    if (typeof taskId === "string" && this.local.has(taskId, caller)) return this.local.get(taskId, caller);
    const { stored, text } = await this.find(taskId, caller);
    if (TERMINAL.has(String(stored.task.status)) || (await this.reachable(stored))) return stored.task;
    return this.orphaned(taskId as string, stored, text);
  }

  /** `tasks/update` on any instance: delivered to the instance running the task. */
  async update(taskId: unknown, inputResponses: unknown, caller: string | undefined): Promise<Record<string, never>> {
    if (typeof taskId === "string" && this.local.has(taskId, caller))
      return this.local.update(taskId, inputResponses, caller);
    const { stored, text } = await this.find(taskId, caller);
    if (!isRecord(inputResponses) || !Object.values(inputResponses).every(isRecord)) {
      throw new RpcError(ErrorCode.InvalidParams, "inputResponses must be an object whose values are result objects");
    }
    if (stored.task.status !== "input_required") return {};
    await this.forward(taskId as string, stored, text, {
      type: "tasks/update",
      taskId,
      inputResponses,
      ...(caller !== undefined ? { caller } : {}),
    });
    return {};
  }

  /** `tasks/cancel` on any instance: the running instance aborts the task's upstream request. */
  async cancel(taskId: unknown, caller: string | undefined): Promise<Record<string, never>> {
    if (typeof taskId === "string" && this.local.has(taskId, caller)) return this.local.cancel(taskId, caller);
    const { stored, text } = await this.find(taskId, caller);
    if (TERMINAL.has(String(stored.task.status))) return {};
    await this.forward(taskId as string, stored, text, {
      type: "tasks/cancel",
      taskId,
      ...(caller !== undefined ? { caller } : {}),
    });
    return {};
  }

  /** Whether `caller` holds task `taskId` on this instance. */
  has(taskId: string, caller?: string): boolean {
    return this.local.has(taskId, caller);
  }

  /** Sends a command to the running instance; a dead one's task is failed instead. */
  private async forward(taskId: string, stored: StoredTask, text: string, command: Command): Promise<void> {
    try {
      const answer = await this.cluster.send(stored.instance, command);
      if (!answer.ok) throw new RpcError(answer.error.code, answer.error.message, answer.error.data);
    } catch (error) {
      if (!(error instanceof InstanceSilentError)) throw unavailable(error);
      if (await this.reachable(stored))
        throw new RpcError(ErrorCode.InternalError, `${error.message}; try again`, undefined, 503);
      await this.orphaned(taskId, stored, text);
    }
  }

  /** The stored task, or -32602 as for an unknown id (expired, someone else's, never existed). */
  private async find(taskId: unknown, caller: string | undefined): Promise<{ stored: StoredTask; text: string }> {
    if (typeof taskId !== "string") throw new RpcError(ErrorCode.InvalidParams, "taskId must be a string");
    let text: string | undefined;
    try {
      text = await this.cluster.store.get(taskKey(taskId));
    } catch (error) {
      throw unavailable(error);
    }
    const stored = text === undefined ? undefined : parseStored(text);
    if (!stored || stored.owner !== ownerHash(caller) || stored.task.taskId !== taskId)
      throw new RpcError(ErrorCode.InvalidParams, "Failed to retrieve task: Task not found");
    return { stored, text: text! };
  }

  private async reachable(stored: StoredTask): Promise<boolean> {
    try {
      return await this.cluster.alive(stored.instance);
    } catch (error) {
      throw unavailable(error);
    }
  }

  /** Marks an unfinished task of a stopped instance failed (once: compare-and-set) and returns what is stored then. */
  private async orphaned(taskId: string, stored: StoredTask, text: string): Promise<Record<string, unknown>> {
    const now = new Date().toISOString();
    const error = {
      code: ErrorCode.InternalError,
      message: "The server instance running this task stopped before it finished.",
    };
    const { inputRequests: _inputRequests, ...rest } = stored.task;
    const failed: StoredTask = {
      ...stored,
      task: { ...rest, status: "failed", statusMessage: error.message, lastUpdatedAt: now, error },
    };
    try {
      if (await this.cluster.store.replace(taskKey(taskId), text, JSON.stringify(failed))) return failed.task;
      const current = await this.cluster.store.get(taskKey(taskId));
      const latest = current === undefined ? undefined : parseStored(current);
      return latest?.task ?? failed.task;
    } catch (cause) {
      throw unavailable(cause);
    }
  }
}

function taskKey(taskId: string): string {
  return `task:${taskId}`;
}

function ownerHash(subject: string | undefined): string | null {
  return subject === undefined ? null : createHash("sha256").update(subject).digest("base64url");
}

const STATUSES = new Set(["working", "input_required", ...TERMINAL]);

/** A stored task, checked field by field; undefined for anything else. */
function parseStored(text: string): StoredTask | undefined {
  try {
    const value = JSON.parse(text) as StoredTask;
    return isRecord(value) &&
      typeof value.instance === "string" &&
      (value.owner === null || typeof value.owner === "string") &&
      typeof value.expiresAt === "number" &&
      isRecord(value.task) &&
      typeof value.task.taskId === "string" &&
      STATUSES.has(value.task.status as string)
      ? value
      : undefined;
  } catch {
    return undefined;
  }
}

/** The store's failure as the JSON-RPC error a client sees (HTTP 503); other errors pass through. */
export function unavailable(error: unknown): unknown {
  if (error instanceof StateUnavailableError) {
    return new RpcError(
      ErrorCode.InternalError,
      `Task state unavailable: ${error.message}. Plain tool calls still work; retry later.`,
      undefined,
      503,
    );
  }
  return error;
}
