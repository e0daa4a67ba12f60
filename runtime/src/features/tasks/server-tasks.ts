/**
 * The tasks as the server uses them (the core's `Tasks` slot, server/tasks-slot.ts) over a
 * {@link TaskKeeper} (task-store.ts in memory, shared-tasks.ts across instances): which calls become
 * tasks, `tasks/get|update|cancel`, and the task ids a `subscriptions/listen` follows.
 */
import { ErrorCode, RpcError } from "../../protocol/jsonrpc.js";
import { isRecord } from "../../protocol/own.js";
import type { HandlerContext, RequestContext } from "../../server/request-context.js";
import { Cancellation } from "../../protocol/cancellation.js";
import { TASKS_EXTENSION, type Tasks } from "../../server/tasks-slot.js";

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

type Answer<T> = Promise<T> | T;

/** Where the tasks of a server are kept. */
export interface TaskKeeper {
  /** The deadline after which a generated tool's call becomes a task, in milliseconds. */
  readonly afterMs: number;
  /**
   * Runs `work`: its result when it settles within `afterMs`, else a `CreateTaskResult` while it
   * goes on. `signal` (the requester leaving) aborts it until it is a task; only `owner` (the
   * caller's authenticated subject) may see it.
   */
  start(work: TaskWork, afterMs: number, signal: AbortSignal, owner?: string): Promise<Record<string, unknown>>;
  /** `tasks/get`, `tasks/update`, `tasks/cancel` of `caller` (its authenticated subject). */
  get(taskId: unknown, caller?: string): Answer<Record<string, unknown>>;
  update(taskId: unknown, inputResponses: unknown, caller?: string): Answer<Record<string, never>>;
  cancel(taskId: unknown, caller?: string): Answer<Record<string, never>>;
  /** Whether `caller` holds task `taskId` on this instance. */
  has(taskId: string, caller?: string): boolean;
  /** Calls `listener` with each task of this instance on every change of its status; returns the unsubscribe. */
  subscribe(listener: (task: Record<string, unknown>) => void): () => void;
  readonly working: number;
  abortAll(): void;
  command?(command: Record<string, unknown>): Promise<unknown>;
}

/** Whether the modern client declared the tasks extension on this request. */
function declares(call: HandlerContext): boolean {
  const extensions = call.era.modern ? call.era.clientCapabilities.extensions : undefined;
  return isRecord(extensions) && isRecord(extensions[TASKS_EXTENSION]);
}

/** Throws -32021 unless the client declared the tasks extension on this request. */
function requireExtension(call: HandlerContext): void {
  if (declares(call)) return;
  throw new RpcError(
    ErrorCode.MissingRequiredClientCapability,
    `This request requires the client to declare the ${TASKS_EXTENSION} extension`,
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
    400,
  );
}

/** The core's tasks slot over `keeper`. */
export function serverTasks(keeper: TaskKeeper): Tasks {
  const store = (call: HandlerContext): TaskKeeper => {
    requireExtension(call);
    return keeper;
  };
  return {
    async call(run, params, call, support, afterMs) {
      if (support === "required") requireExtension(call);
      else if (!declares(call)) return run(params, call);
      // Once the call is a task, its notifications would reach no one: the request has been answered.
      const work = (round: TaskRound) => {
        const notify = call.ctx.notify;
        const ctx: RequestContext = {
          ...call.ctx,
          notify: notify && ((message) => round.detached() || notify(message)),
        };
        const roundParams = round.detached()
          ? { ...params, inputResponses: round.inputResponses, requestState: round.requestState }
          : params;
        const cancellation = new Cancellation(round.signal);
        return run(roundParams, { ...call, ctx, cancellation, serverHeldState: round.detached() });
      };
      return keeper.start(work, afterMs ?? keeper.afterMs, call.cancellation.signal, call.ctx.subject);
    },
    methods: {
      "tasks/get": async (params, call) => store(call).get(params.taskId, call.ctx.subject),
      "tasks/update": async ({ taskId, inputResponses }, call) =>
        store(call).update(taskId, inputResponses, call.ctx.subject),
      "tasks/cancel": async (params, call) => store(call).cancel(params.taskId, call.ctx.subject),
    },
    follow(requested, call, notify) {
      if (requested === undefined) return undefined;
      if (!Array.isArray(requested) || !requested.every((id) => typeof id === "string"))
        throw new RpcError(
          ErrorCode.InvalidParams,
          "notifications.taskIds must be an array of strings",
          undefined,
          400,
        );
      requireExtension(call);
      const taskIds = requested.filter((id) => keeper.has(id, call.ctx.subject));
      const listener = (task: Record<string, unknown>): void => {
        if (taskIds.includes(task.taskId as string)) notify(task);
      };
      const stop = taskIds.length ? keeper.subscribe(listener) : () => {};
      return { taskIds, stop };
    },
    get working() {
      return keeper.working;
    },
    abortAll: () => keeper.abortAll(),
    ...(keeper.command && { command: (command: Record<string, unknown>) => keeper.command!(command) }),
  };
}
