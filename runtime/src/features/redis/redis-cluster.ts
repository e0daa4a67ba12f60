/**
 * The instances of one server that share a state store: each has a random id, keeps a heartbeat
 * key alive while it runs (so the others can tell a task whose instance died from one still
 * working), receives commands addressed to it on its own channel (answered on the sender's), and
 * hears broadcasts (a legacy `notifications/cancelled` that reached another instance).
 */
import { randomBytes } from "node:crypto";
import type { Logger } from "../../protocol/logger.js";
import { StateUnavailableError, type StateStore } from "../../state/state.js";
import { ErrorCode, RpcError } from "../../protocol/jsonrpc.js";
import { describeError } from "../../protocol/logger.js";
import {
  InstanceSilentError,
  type Cluster,
  type ClusterMember,
  type Command,
  type CommandAnswer,
} from "../../state/cluster-slot.js";

/** How long an instance counts as alive after its last heartbeat. */
export const HEARTBEAT_TTL_MS = 10_000;
/** How often an instance renews its heartbeat. */
const HEARTBEAT_EVERY_MS = 3_000;
/** How long a command waits for the instance it addresses to answer. */
const COMMAND_WAIT_MS = 3_000;

interface Envelope {
  kind: "command" | "answer" | "broadcast";
  /** Correlates an answer with its command. */
  ref?: string;
  /** The sender's instance id (where answers go). */
  from: string;
  body?: unknown;
}

export class StoreCluster implements Cluster {
  /** This instance's id: 96 random bits. */
  readonly id = randomBytes(12).toString("base64url");
  private readonly waiting = new Map<string, (answer: CommandAnswer) => void>();
  private heartbeat: NodeJS.Timeout | undefined;
  private member: ClusterMember | undefined;
  private closed = false;

  constructor(
    readonly store: StateStore,
    private readonly logger: Logger,
  ) {}

  /** Subscribes to this instance's channel and the broadcast channel for `member`, and starts the heartbeat. */
  async join(member: ClusterMember): Promise<void> {
    this.member = member;
    await this.store.subscribe(`instance:${this.id}`, (text) => this.receive(text));
    await this.store.subscribe("broadcast", (text) => this.receive(text));
    const beat = (): void => {
      this.store.set(`alive:${this.id}`, "1", HEARTBEAT_TTL_MS).catch(() => {}); // Redis down: the others judge later
    };
    beat();
    this.heartbeat = setInterval(beat, HEARTBEAT_EVERY_MS).unref();
  }

  /** True when instance `id` renewed its heartbeat lately (this one always is). */
  async alive(id: string): Promise<boolean> {
    return id === this.id || (await this.store.get(`alive:${id}`)) !== undefined;
  }

  /**
   * Sends `command` to instance `to` and resolves to its answer. Rejects with InstanceSilentError
   * when no answer comes in time, StateUnavailableError when the store cannot be reached.
   */
  async send(to: string, command: Command): Promise<CommandAnswer> {
    const ref = randomBytes(9).toString("base64url");
    const answer = new Promise<CommandAnswer>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(ref);
        reject(
          new InstanceSilentError(`the server instance holding this task did not answer within ${COMMAND_WAIT_MS} ms`),
        );
      }, COMMAND_WAIT_MS);
      this.waiting.set(ref, (value) => {
        clearTimeout(timer);
        this.waiting.delete(ref);
        resolve(value);
      });
    });
    try {
      await this.store.publish(
        `instance:${to}`,
        JSON.stringify({ kind: "command", ref, from: this.id, body: command } satisfies Envelope),
      );
    } catch (error) {
      this.waiting.get(ref)?.({ ok: false, error: { code: 0, message: "" } }); // settles and clears the timer
      throw error;
    }
    return answer;
  }

  /** Sends `message` to every instance (this one included). */
  async broadcast(message: Record<string, unknown>): Promise<void> {
    await this.store.publish(
      "broadcast",
      JSON.stringify({ kind: "broadcast", from: this.id, body: message } satisfies Envelope),
    );
  }

  /** Broadcasts a cancellation that no request of this instance took (a failure is logged). */
  cancelElsewhere(cancellation: { scope?: string | undefined; requestId: string | number; reason: string }): void {
    this.broadcast({ type: "cancel", ...cancellation }).catch((error: unknown) => {
      this.logger.warn("cancel not sent to the other instances", { error: describeError(error) });
    });
  }

  /** Stops the heartbeat and removes it, so the others know at once that this instance is gone. */
  async stop(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.heartbeat);
    await this.store.delete(`alive:${this.id}`).catch((error: unknown) => {
      if (!(error instanceof StateUnavailableError)) throw error;
    });
  }

  private receive(text: string): void {
    let envelope: Envelope;
    try {
      envelope = JSON.parse(text) as Envelope;
    } catch {
      return;
    }
    if (envelope.kind === "answer" && typeof envelope.ref === "string") {
      this.waiting.get(envelope.ref)?.(envelope.body as CommandAnswer);
    } else if (envelope.kind === "broadcast" && envelope.body && typeof envelope.body === "object") {
      this.heard(envelope.body as Record<string, unknown>);
    } else if (envelope.kind === "command" && typeof envelope.ref === "string" && typeof envelope.from === "string") {
      void this.answer(envelope.from, envelope.ref, envelope.body as Command);
    }
  }

  /** A broadcast: a cancellation of a request that may run here, or one for the member (client answers). */
  private heard(message: Record<string, unknown>): void {
    const { type, requestId } = message;
    if (type === "cancel" && (typeof requestId === "string" || typeof requestId === "number"))
      this.member?.cancelLocal(
        typeof message.scope === "string" ? message.scope : undefined,
        requestId,
        String(message.reason ?? "cancelled by client"),
      );
    this.member?.onBroadcast(message);
  }

  private async answer(to: string, ref: string, command: Command): Promise<void> {
    let answer: CommandAnswer;
    try {
      const run = this.member?.command;
      if (!run) throw new RpcError(ErrorCode.MethodNotFound, "tasks are off on this instance");
      answer = { ok: true, value: await run(command) };
    } catch (error) {
      const wire = error as { code?: unknown; message?: unknown; data?: unknown };
      answer = {
        ok: false,
        error: {
          code: typeof wire.code === "number" ? wire.code : -32603,
          message: typeof wire.code === "number" && typeof wire.message === "string" ? wire.message : "Internal error",
          ...(wire.data !== undefined ? { data: wire.data } : {}),
        },
      };
    }
    try {
      await this.store.publish(
        `instance:${to}`,
        JSON.stringify({ kind: "answer", ref, from: this.id, body: answer } satisfies Envelope),
      );
    } catch (error) {
      this.logger.warn("could not answer another instance's command", {
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
}
