// @mcp-gen/runtime 0.1.0, vendored by mcp-gen. Do not edit: changes are lost when the server is regenerated.
/**
 * Modern `subscriptions/listen`: the acknowledgement, the streams held open until the client
 * cancels them or the server shuts down, and `notifications/tasks` for the task ids a listener
 * follows. The catalog of a generated server never changes, so no list-changed notification type
 * is ever honoured.
 */
import type { RequestEra } from "../protocol/era.js";
import { ErrorCode, RpcError } from "../protocol/jsonrpc.js";
import { isRecord } from "../protocol/own.js";
import { META_SUBSCRIPTION_ID } from "../protocol/versions.js";
import type { HandlerContext, Params } from "./request-context.js";
import { declaresTasks, missingTasksExtension, type Tasks } from "./tasks.js";

/** The open `subscriptions/listen` streams of one server. */
export class Subscriptions {
  /** Each open stream's ending. */
  private readonly open = new Set<() => void>();

  /** `tasks` is the server's task store (undefined when the extension is off). */
  constructor(private readonly tasks: Tasks | undefined) {}

  /**
   * Acknowledges first (with the honoured filter), then holds the stream open until the client
   * cancels it or {@link Subscriptions.closeAll}. With the tasks extension, `taskIds` (of tasks
   * this instance holds) get `notifications/tasks` on every status change.
   */
  async listen(params: Params, call: HandlerContext): Promise<Record<string, unknown>> {
    if (!call.ctx.notify)
      throw new RpcError(
        ErrorCode.InvalidRequest,
        "subscriptions/listen needs a streaming response (Accept: text/event-stream)",
        undefined,
        400,
      );
    if (params.notifications !== undefined && !isRecord(params.notifications)) {
      throw new RpcError(ErrorCode.InvalidParams, "notifications must be an object", undefined, 400);
    }
    const subscriptionMeta = { [META_SUBSCRIPTION_ID]: call.id };
    // Resource subscriptions are honoured (no update is ever due); list changes never happen.
    const requested = isRecord(params.notifications) ? params.notifications.resourceSubscriptions : undefined;
    const honoured: Record<string, unknown> =
      Array.isArray(requested) && requested.every((uri) => typeof uri === "string")
        ? { resourceSubscriptions: requested }
        : {};
    const taskIds = this.listenedTasks(
      isRecord(params.notifications) ? params.notifications.taskIds : undefined,
      call.era,
      call.ctx.subject,
    );
    if (taskIds) honoured.taskIds = taskIds;
    const notify = call.ctx.notify;
    notify({
      jsonrpc: "2.0",
      method: "notifications/subscriptions/acknowledged",
      params: { notifications: honoured, _meta: subscriptionMeta },
    });
    const unsubscribe = taskIds?.length
      ? this.tasks!.subscribe((task) => {
          if (taskIds.includes(task.taskId as string))
            notify({ jsonrpc: "2.0", method: "notifications/tasks", params: { ...task, _meta: subscriptionMeta } });
        })
      : undefined;
    await new Promise<void>((resolve) => {
      const end = (): void => {
        unsubscribe?.();
        this.open.delete(end);
        call.signal.removeEventListener("abort", end);
        resolve();
      };
      this.open.add(end);
      call.signal.addEventListener("abort", end, { once: true });
    });
    return { _meta: subscriptionMeta };
  }

  /** Ends every open stream gracefully (each gets its closing result). */
  closeAll(): void {
    for (const end of [...this.open]) end();
  }

  /**
   * The task ids a listen request may follow: those this instance holds. Undefined when none are
   * asked for or the extension is off; -32021 when the client did not declare the extension.
   */
  private listenedTasks(requested: unknown, era: RequestEra, subject: string | undefined): string[] | undefined {
    if (requested === undefined || !this.tasks) return undefined;
    if (!Array.isArray(requested) || !requested.every((id) => typeof id === "string")) {
      throw new RpcError(ErrorCode.InvalidParams, "notifications.taskIds must be an array of strings", undefined, 400);
    }
    if (!era.modern || !declaresTasks(era.clientCapabilities)) throw missingTasksExtension();
    const tasks = this.tasks;
    return requested.filter((id) => tasks.has(id, subject));
  }
}
