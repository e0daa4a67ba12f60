/**
 * Legacy-era HTTP sessions (`Mcp-Session-Id`, `--sessions`) in the state store: what
 * `initialize` negotiated (protocol revision, the client's capabilities) and the client's
 * `logging/setLevel` and its announced `clientInfo`, so any instance behind a load balancer can serve the session's next
 * request. In memory by default; in Redis with `--state`. A session lives until DELETE, or
 * `SESSION_IDLE_MS` after its last use. Nothing secret is kept (no header, no token).
 */
import { randomBytes } from "node:crypto";
import { clientInfoOf } from "../protocol/client-info.js";
import { isRecord } from "../protocol/own.js";
import type { StateStore } from "../state/state.js";
import type { LegacySession } from "../server/request-context.js";

export type { LegacySession };

/** A session unused this long is forgotten (its next request gets 404, and the client re-initializes). */
export const SESSION_IDLE_MS = 24 * 60 * 60 * 1000;
/** A session's expiry is renewed on use at most this often (each renewal is a write). */
const RENEW_EVERY_MS = 60 * 60 * 1000;

interface StoredSession extends LegacySession {
  /** When the session was last written (epoch ms), for renewing its expiry. */
  at: number;
}

export class SessionStore {
  constructor(private readonly store: StateStore) {}

  /** Creates a session and returns its id: 128 random bits, hex (visible ASCII, unguessable). */
  async create(session: LegacySession): Promise<string> {
    const id = randomBytes(16).toString("hex");
    await this.write(id, session);
    return id;
  }

  /** The session `id`, or undefined when unknown, deleted or expired. */
  async get(id: string): Promise<LegacySession | undefined> {
    const text = await this.store.get(key(id));
    if (text === undefined) return undefined;
    let stored: StoredSession;
    try {
      stored = JSON.parse(text) as StoredSession;
    } catch {
      return undefined;
    }
    if (!isRecord(stored) || typeof stored.version !== "string") return undefined;
    const session: LegacySession = {
      version: stored.version,
      clientCapabilities: isRecord(stored.clientCapabilities) ? stored.clientCapabilities : {},
    };
    if (stored.logLevel !== undefined) session.logLevel = stored.logLevel;
    const client = clientInfoOf(stored.client);
    if (client) session.client = client;
    if (Date.now() - stored.at > RENEW_EVERY_MS) await this.write(id, session);
    return session;
  }

  /** Saves a changed session (its log level). */
  async save(id: string, session: LegacySession): Promise<void> {
    await this.write(id, session);
  }

  /** Ends session `id`; false when there was none. */
  async delete(id: string): Promise<boolean> {
    return this.store.delete(key(id));
  }

  private async write(id: string, session: LegacySession): Promise<void> {
    const stored: StoredSession = {
      version: session.version,
      clientCapabilities: session.clientCapabilities,
      at: Date.now(),
    };
    if (session.logLevel !== undefined) stored.logLevel = session.logLevel;
    if (session.client !== undefined) stored.client = session.client;
    await this.store.set(key(id), JSON.stringify(stored), SESSION_IDLE_MS);
  }
}

function key(id: string): string {
  return `session:${id}`;
}
