/**
 * Feature `tasks`: the tasks extension (`io.modelcontextprotocol/tasks`) for modern clients that
 * declare it. A generated tool's call still running after `--task-after` milliseconds becomes a
 * task; with a shared store (feature `redis`) tasks are readable and cancellable on every instance.
 */
import type { Feature } from "../../cli/features.js";
import { integerSetting } from "../../cli/settings.js";
import type { MakeTasks } from "../../server/tasks-slot.js";
import { serverTasks } from "./server-tasks.js";
import { SharedTasks } from "./shared-tasks.js";
import { TaskStore, type TaskOptions } from "./task-store.js";

/** Default deadline after which a generated tool's call becomes a task. */
export const DEFAULT_TASK_AFTER_MS = 2000;

export const tasks: Feature = {
  name: "tasks",
  flags: { "task-after": { type: "string" } },
  usage: `  --task-after MS    tasks extension (2026-07-28 clients that declare it): a tool call still
                     running after MS milliseconds becomes a task (default ${DEFAULT_TASK_AFTER_MS})
  --no-tasks         do not offer the tasks extension
`,
  plugs({ flags }) {
    if (flags["no-tasks"]) return {};
    const text = flags["task-after"] as string | undefined;
    const afterMs = text === undefined ? DEFAULT_TASK_AFTER_MS : integerSetting("--task-after", text, 0, 2_147_483_647);
    return { tasks: makeTasks({ afterMs }) };
  },
};

/**
 * The tasks of a server: in this process's memory, and with the server's cluster (a shared store)
 * every change is written there and `tasks/*` reach the instance that runs a task.
 */
export function makeTasks(options: TaskOptions & { afterMs?: number } = {}): MakeTasks {
  return ({ cluster, logger }) => {
    if (!cluster) return serverTasks(new TaskStore(options));
    let shared: SharedTasks | undefined;
    // No task is made while the store is down: its snapshot could not be shared.
    const local = new TaskStore({
      ...options,
      onChange: (snapshot) => shared!.write(snapshot),
      canCreate: () => cluster.store.available(),
    });
    return serverTasks((shared = new SharedTasks(local, cluster, logger)));
  };
}
