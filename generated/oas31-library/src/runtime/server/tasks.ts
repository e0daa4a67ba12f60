// @mcp-gen/runtime 0.1.0, vendored by mcp-gen. Do not edit: changes are lost when the server is regenerated.
/**
 * The tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663) as the core sees it: a modern
 * `tools/call` that outlasts its deadline may answer `resultType: "task"` and go on running, then be
 * observed with `tasks/get`, fed with `tasks/update` and stopped with `tasks/cancel`. The feature
 * `tasks` (features/tasks/) keeps them; without it calls always answer in line.
 */
import { ErrorCode, RpcError } from "../protocol/jsonrpc.js";
import type { Logger } from "../protocol/logger.js";
import { isRecord } from "../protocol/own.js";
import type { Cluster } from "../state/cluster.js";

/** The extension's identifier, as declared in `capabilities.extensions`. */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

/** One run of a task's work. Later runs answer the previous run's `input_required` result. */
export interface TaskRound {
  /** Aborted by `tasks/cancel`, expiry, or (before the task exists) the requester leaving. */
  signal: AbortSignal;
  /** True once the call became a task: notifications for the original request stop then. */
  detached(): boolean;
  /** The client's answers to the previous run's `inputRequests`, by the keys that run used. */
  inputResponses?: Record<string, Record<string, unknown>>;
  /** The previous run's `requestState`, passed back unchanged. */
  requestState?: string;
}

/** The work behind a task: resolves to a tool result or an `input_required` result. */
export type TaskWork = (round: TaskRound) => Promise<Record<string, unknown>>;

/** The tasks of one server. */
export interface Tasks {
  /** The deadline after which a generated tool's call becomes a task, in milliseconds. */
  readonly afterMs: number;
  /**
   * Runs `work`: its result when it settles within `afterMs`, else a `CreateTaskResult` while the
   * work goes on. `signal` (the requester leaving) aborts it until it is a task; `owner` (the
   * caller's authenticated subject) is the only caller that may see it.
   */
  start(work: TaskWork, afterMs: number, signal: AbortSignal, owner?: string): Promise<Record<string, unknown>>;
  /** `tasks/get`, `tasks/update`, `tasks/cancel` of `caller` (its authenticated subject). */
  get(taskId: unknown, caller?: string): Promise<Record<string, unknown>> | Record<string, unknown>;
  update(taskId: unknown, inputResponses: unknown, caller?: string): Promise<Record<string, never>> | Record<string, never>;
  cancel(taskId: unknown, caller?: string): Promise<Record<string, never>> | Record<string, never>;
  /** Whether `caller` holds task `taskId` on this instance (it may follow it with `subscriptions/listen`). */
  has(taskId: string, caller?: string): boolean;
  /** Calls `listener` with each task of this instance on every change of its status; returns the unsubscribe. */
  subscribe(listener: (task: Record<string, unknown>) => void): () => void;
  /** Tasks of this instance still working (the HTTP drain waits for them). */
  readonly working: number;
  /** Cancels every unfinished task (shutdown). */
  abortAll(): void;
  /** Handles a command another instance sent about a task this one runs (shared store only). */
  command?(command: Record<string, unknown>): Promise<unknown>;
}

/** What the tasks are made with: the server's cluster when its store is shared. */
export interface TasksContext {
  cluster: Cluster | undefined;
  logger: Logger;
}

/** Makes the tasks of a server; the tasks feature provides it. */
export type MakeTasks = (context: TasksContext) => Tasks;

/** True when the modern client declared the tasks extension on this request. */
export function declaresTasks(clientCapabilities: Record<string, unknown>): boolean {
  const extensions = clientCapabilities.extensions;
  return isRecord(extensions) && isRecord(extensions[TASKS_EXTENSION]);
}

/** The -32021 error for a request that needs the tasks extension the client did not declare. */
export function missingTasksExtension(): RpcError {
  return new RpcError(
    ErrorCode.MissingRequiredClientCapability,
    `This request requires the client to declare the ${TASKS_EXTENSION} extension`,
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
    400,
  );
}
