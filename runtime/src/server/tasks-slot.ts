/** The tasks extension's slot (feature `tasks`; without it calls answer in line) and `subscriptions/listen`. */
import { ErrorCode, RpcError } from "../protocol/jsonrpc.js";
import type { Logger } from "../protocol/logger.js";
import { isRecord } from "../protocol/own.js";
import { META_SUBSCRIPTION_ID } from "../protocol/versions.js";
import type { Cluster } from "../state/cluster-slot.js";
import type { HandlerContext, Params, RequestHandler } from "./request-context.js";

/** The extension's identifier, as declared in `capabilities.extensions`. */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

/** Runs one round of a tool call with these params and context (later rounds answer `input_required`). */
export type RunRound = (params: Params, call: HandlerContext) => Promise<Record<string, unknown>>;

/** The tasks of one server. */
export interface Tasks {
  /**
   * A modern `tools/call` that may run as a task: a task once it outlasts `afterMs` (undefined: the
   * server's deadline) for a client that declared the extension; `required` refuses others (-32021).
   */
  call(
    run: RunRound,
    params: Params,
    call: HandlerContext,
    support: "optional" | "required",
    afterMs: number | undefined,
  ): Promise<Record<string, unknown>>;
  /** The modern methods `tasks/get`, `tasks/update`, `tasks/cancel`. */
  readonly methods: Readonly<Record<string, RequestHandler>>;
  /** Follows the `taskIds` a `subscriptions/listen` asks for: `notify` gets each change of the caller's tasks. */
  follow(
    taskIds: unknown,
    call: HandlerContext,
    notify: (task: Record<string, unknown>) => void,
  ): { taskIds: string[]; stop(): void } | undefined;
  /** Tasks of this instance still working (the HTTP drain waits for them). */
  readonly working: number;
  /** Cancels every unfinished task (shutdown). */
  abortAll(): void;
  /** Handles a command another instance sent about a task this one runs (shared store only). */
  command?(command: Record<string, unknown>): Promise<unknown>;
}

/** Makes the tasks of a server (with its cluster when the store is shared); the tasks feature provides it. */
export type MakeTasks = (context: { cluster: Cluster | undefined; logger: Logger }) => Tasks;

/** The open `subscriptions/listen` streams of one server (`tasks`: undefined when the extension is off). */
export class Subscriptions {
  /** Each open stream's ending. */
  private readonly open = new Set<() => void>();

  constructor(private readonly tasks: Tasks | undefined) {}

  /**
   * Acknowledges the honoured filter, then holds the stream open until cancelled or closed. Resource
   * subscriptions never get an update (the catalog is fixed); followed tasks get `notifications/tasks`.
   */
  async listen(params: Params, call: HandlerContext): Promise<Record<string, unknown>> {
    const notify = call.ctx.notify;
    if (!notify)
      throw new RpcError(
        ErrorCode.InvalidRequest,
        "subscriptions/listen needs a streaming response (Accept: text/event-stream)",
        undefined,
        400,
      );
    const filter = params.notifications === undefined ? {} : params.notifications;
    if (!isRecord(filter))
      throw new RpcError(ErrorCode.InvalidParams, "notifications must be an object", undefined, 400);
    const _meta = { [META_SUBSCRIPTION_ID]: call.id };
    const uris = filter.resourceSubscriptions;
    const honoured: Record<string, unknown> =
      Array.isArray(uris) && uris.every((uri) => typeof uri === "string") ? { resourceSubscriptions: uris } : {};
    const followed = this.tasks?.follow(filter.taskIds, call, (task) =>
      notify({ jsonrpc: "2.0", method: "notifications/tasks", params: { ...task, _meta } }),
    );
    if (followed) honoured.taskIds = followed.taskIds;
    notify({
      jsonrpc: "2.0",
      method: "notifications/subscriptions/acknowledged",
      params: { notifications: honoured, _meta },
    });
    await new Promise<void>((resolve) => {
      const end = (): void => {
        if (!this.open.delete(end)) return; // ended already (closed, then cancelled)
        followed?.stop();
        resolve();
      };
      this.open.add(end);
      call.cancellation.onCancel(end);
    });
    return { _meta };
  }

  /** Ends every open stream gracefully (each gets its closing result). */
  closeAll(): void {
    for (const end of [...this.open]) end();
  }
}
