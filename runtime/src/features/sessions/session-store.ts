/**
 * Legacy-era HTTP sessions (`Mcp-Session-Id`, `--sessions`) in the state store: what
 * `initialize` negotiated (protocol revision, the client's capabilities) and the client's
 * `logging/setLevel` and its announced `clientInfo`, so any instance behind a load balancer can serve the session's next
 * request. In memory by default; in Redis with `--state`. A session lives until DELETE, or
 * `SESSION_IDLE_MS` after its last use. Nothing secret is kept (no header, no token). In OAuth
 * mode a session belongs to the token's issuer and subject (a hash of them): another caller's token
 * gets 404 for it. A stored record is checked field by field when read.
 */
import { createHash, randomBytes } from "node:crypto";
import { clientInfoOf } from "../../protocol/client-info.js";
import { isRecord } from "../../protocol/own.js";
import type { StateStore } from "../../state/state.js";
import type { LegacySession } from "../../server/request-context.js";
import { isLogLevel } from "../../protocol/era.js";
import { isKnownProtocolVersion } from "../../protocol/versions.js";

/** A session unused this long is forgotten (its next request gets 404, and the client re-initializes). */
export const SESSION_IDLE_MS = 24 * 60 * 60 * 1000;
/** A session's expiry is renewed on use at most this often (each renewal is a write). */
const RENEW_EVERY_MS = 60 * 60 * 1000;

/** Who a session belongs to in OAuth mode: a hash of the token's issuer and subject. */
export function sessionOwner(issuer: string, subject: string | undefined): string {
  return createHash("sha256")
    .update(JSON.stringify([issuer, subject ?? null]))
    .digest("base64url");
}

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

  /** The session `id`, or undefined when unknown, deleted, expired or not `owner`'s ({@link sessionOwner}; none without OAuth). */
  async get(id: string, owner?: string): Promise<LegacySession | undefined> {
    const text = await this.store.get(key(id));
    if (text === undefined) return undefined;
    let stored: StoredSession;
    try {
      stored = JSON.parse(text) as StoredSession;
    } catch {
      return undefined;
    }
    if (
      !isRecord(stored) ||
      typeof stored.at !== "number" ||
      (stored.logLevel !== undefined && !isLogLevel(stored.logLevel)) ||
      !isKnownProtocolVersion(stored.version) ||
      (stored.owner !== undefined && typeof stored.owner !== "string") ||
      stored.owner !== owner
    )
      return undefined;
    const session: LegacySession = {
      version: stored.version,
      clientCapabilities: isRecord(stored.clientCapabilities) ? stored.clientCapabilities : {},
    };
    if (stored.logLevel !== undefined) session.logLevel = stored.logLevel;
    const client = clientInfoOf(stored.client);
    if (client) session.client = client;
    if (stored.owner !== undefined) session.owner = stored.owner;
    // The tool choice was checked when the session began; the server checks it again on each request.
    if (isRecord(stored.choice)) session.choice = stored.choice;
    if (Date.now() - stored.at > RENEW_EVERY_MS) await this.write(id, session);
    return session;
  }

  /** Saves a changed session (its log level). */
  async save(id: string, session: LegacySession): Promise<void> {
    await this.write(id, session);
  }

  /** Ends session `id` of `owner`; false when there was none (or it is someone else's). */
  async delete(id: string, owner?: string): Promise<boolean> {
    return (await this.get(id, owner)) !== undefined && this.store.delete(key(id));
  }

  private async write(id: string, session: LegacySession): Promise<void> {
    const stored: StoredSession = {
      version: session.version,
      clientCapabilities: session.clientCapabilities,
      at: Date.now(),
    };
    if (session.logLevel !== undefined) stored.logLevel = session.logLevel;
    if (session.client !== undefined) stored.client = session.client;
    if (session.owner !== undefined) stored.owner = session.owner;
    if (session.choice !== undefined) stored.choice = session.choice;
    await this.store.set(key(id), JSON.stringify(stored), SESSION_IDLE_MS);
  }
}

function key(id: string): string {
  return `session:${id}`;
}
