/**
 * The instances of one server sharing a state store (feature `redis` implements it): each has a
 * random id and a heartbeat, answers commands addressed to it and hears broadcasts.
 */
import type { Logger } from "../protocol/logger.js";
import type { StateStore } from "./state.js";

/** A command sent to one instance, and its answer. */
export type Command = Record<string, unknown> & { type: string };
export type CommandAnswer =
  | { ok: true; value: unknown }
  | { ok: false; error: { code: number; message: string; data?: unknown } };

/** Thrown when the addressed instance did not answer within the wait. */
export class InstanceSilentError extends Error {
  override readonly name = "InstanceSilentError";
  /** Stable across versions: custom code may branch on it. */
  readonly code = "ERR_INSTANCE_SILENT";
}

/** What this instance does for the others: answer commands about its tasks, hear broadcasts, cancel. */
export interface ClusterMember {
  /** Answers a command about a task this instance runs; undefined when tasks are off here. */
  command: ((command: Command) => Promise<unknown>) | undefined;
  onBroadcast(message: Record<string, unknown>): void;
  /** Cancels a request if it runs here (a legacy session's requests may run on any instance). */
  cancelLocal(scope: string | undefined, requestId: string | number, reason: string): void;
}

/** This instance among the others that share its store. */
export interface Cluster {
  readonly id: string;
  readonly store: StateStore;
  /** Starts listening for commands to this instance and broadcasts (for `member`), and the heartbeat. */
  join(member: ClusterMember): Promise<void>;
  /** Asks every instance to cancel a request that does not run here. */
  cancelElsewhere(cancellation: { scope?: string | undefined; requestId: string | number; reason: string }): void;
  /** True when instance `id` renewed its heartbeat lately (this one always is). */
  alive(id: string): Promise<boolean>;
  /** Sends `command` to instance `to`; rejects with InstanceSilentError when it does not answer in time. */
  send(to: string, command: Command): Promise<CommandAnswer>;
  /** Sends `message` to every instance (this one included). */
  broadcast(message: Record<string, unknown>): Promise<void>;
  /** Stops the heartbeat and leaves. */
  stop(): Promise<void>;
}

/** Makes the cluster of a shared store; the redis feature provides it. */
export type MakeCluster = (store: StateStore, logger: Logger) => Cluster;
