/**
 * Shared state encrypted at rest: a wrapper around a state store (Redis) that seals every value
 * and every pub/sub message with AES-256-GCM under a key derived from the operators' secret
 * (`MCP_STATE_SECRET`, the same on every instance), and names keys by an HMAC of the real key.
 * So read access to Redis shows neither a task's result nor a session or task id (the key names
 * keep only their kind: `task:…`, `session:…`), and a record written by anyone without the secret,
 * or moved to another key, fails its check when read: it counts as absent, and `onInvalid` hears of it.
 */
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from "node:crypto";
import type { StateStore } from "../../state/state.js";

/** Shortest secret accepted for a shared store (characters). */
export const MIN_STATE_SECRET_CHARS = 32;

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A state store whose values and messages are encrypted and authenticated, and whose key names are hashed. */
export class SealedStateStore implements StateStore {
  readonly shared: boolean;
  private readonly cipherKey: Buffer;
  private readonly nameKey: Buffer;

  /** `onInvalid` is told what kind of record or message failed its check (never its key or content). */
  constructor(
    private readonly inner: StateStore,
    secret: string,
    private readonly onInvalid: (what: string) => void = () => {},
  ) {
    if (secret.length < MIN_STATE_SECRET_CHARS)
      throw new Error(`the state secret must have at least ${MIN_STATE_SECRET_CHARS} characters`);
    this.shared = inner.shared;
    const derive = (purpose: string) => Buffer.from(hkdfSync("sha256", secret, "mcp-gen shared state", purpose, 32));
    this.cipherKey = derive("values");
    this.nameKey = derive("key names");
  }

  async get(key: string): Promise<string | undefined> {
    const sealed = await this.inner.get(this.name(key));
    return sealed === undefined ? undefined : this.open(key, sealed);
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    await this.inner.set(this.name(key), this.seal(key, value), ttlMs);
  }

  async create(key: string, value: string, ttlMs: number): Promise<boolean> {
    return this.inner.create(this.name(key), this.seal(key, value), ttlMs);
  }

  /** Sealing is randomised, so the comparison is made on the value read now, and the swap on its sealed form. */
  async replace(key: string, expected: string, value: string): Promise<boolean> {
    const name = this.name(key);
    const sealed = await this.inner.get(name);
    if (sealed === undefined || this.open(key, sealed) !== expected) return false;
    return this.inner.replace(name, sealed, this.seal(key, value));
  }

  async delete(key: string): Promise<boolean> {
    return this.inner.delete(this.name(key));
  }

  async publish(channel: string, message: string): Promise<void> {
    await this.inner.publish(channel, this.seal(`channel:${channel}`, message));
  }

  async subscribe(channel: string, listener: (message: string) => void): Promise<void> {
    await this.inner.subscribe(channel, (sealed) => {
      const message = this.open(`channel:${channel}`, sealed);
      if (message !== undefined) listener(message);
    });
  }

  available(): boolean {
    return this.inner.available();
  }

  async close(): Promise<void> {
    await this.inner.close();
  }

  /** The stored name of `key`: its kind (the part before the first `:`) and an HMAC of the whole key. */
  private name(key: string): string {
    const kind = key.slice(0, key.indexOf(":") + 1);
    return kind + createHmac("sha256", this.nameKey).update(key).digest("base64url");
  }

  /** base64 of IV, GCM tag and ciphertext; `context` (the key or channel) is authenticated with it. */
  private seal(context: string, text: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", this.cipherKey, iv);
    cipher.setAAD(Buffer.from(context, "utf8"));
    const data = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), data]).toString("base64");
  }

  private open(context: string, sealed: string): string | undefined {
    const raw = Buffer.from(sealed, "base64");
    try {
      if (raw.length < IV_BYTES + TAG_BYTES) throw new Error("too short");
      const decipher = createDecipheriv("aes-256-gcm", this.cipherKey, raw.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(context, "utf8"));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8");
    } catch {
      this.onInvalid(
        context.startsWith("channel:") ? `a message on ${context}` : `a stored ${context.split(":")[0]} record`,
      );
      return undefined;
    }
  }
}
