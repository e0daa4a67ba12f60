/**
 * Feature `state`: the in-memory state store that the features keeping state (sessions, per-user
 * sign-in) use when no shared store is configured; included with them. It fills no slot of the core.
 */
import type { Feature } from "../../cli/features.js";
import { MemoryStateStore } from "./memory.js";

export { MemoryStateStore };

export const state: Feature = {
  name: "state",
  plugs: () => ({}),
};
