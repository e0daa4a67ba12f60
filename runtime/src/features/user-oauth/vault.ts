/**
 * The token vault: each user's upstream tokens per security scheme, in the server's state store
 * (this process's memory, or Redis shared by every instance), always sealed (seal.ts). Tokens
 * never leave it except on the upstream request; nothing here logs.
 */
import type { StateStore } from "../../state/state.js";
import type { RecordSeal } from "./seal.js";

/** One user's tokens for one scheme. */
export interface UserTokens {
  access: string;
  refresh?: string;
  /** `Date.now()` at which the access token expires; absent when the upstream did not say. */
  expiresAt?: number;
  /** Scopes the tokens were granted. */
  scopes: string[];
}

/** How long tokens with a refresh token are kept (the upstream may end them sooner). */
const KEEP_REFRESHABLE_MS = 90 * 24 * 3_600_000;
/** How long tokens without a refresh token or expiry are kept. */
const KEEP_DEFAULT_MS = 30 * 24 * 3_600_000;

/** Tokens by (user, scheme). */
export class TokenVault {
  constructor(
    private readonly store: StateStore,
    private readonly seal: RecordSeal,
  ) {}

  /** The tokens of `user` for `scheme`, or undefined. */
  async get(user: string, scheme: string): Promise<UserTokens | undefined> {
    const name = this.name(user, scheme);
    const sealed = await this.store.get(name);
    const text = sealed === undefined ? undefined : this.seal.open(name, sealed);
    if (text === undefined) return undefined;
    try {
      const tokens = JSON.parse(text) as UserTokens;
      return typeof tokens.access === "string" && Array.isArray(tokens.scopes) ? tokens : undefined;
    } catch {
      return undefined;
    }
  }

  /** Keeps `tokens` for `user` and `scheme`, replacing earlier ones. */
  async put(user: string, scheme: string, tokens: UserTokens): Promise<void> {
    const name = this.name(user, scheme);
    const keep = tokens.refresh
      ? KEEP_REFRESHABLE_MS
      : tokens.expiresAt
        ? Math.max(1_000, tokens.expiresAt - Date.now())
        : KEEP_DEFAULT_MS;
    await this.store.set(name, this.seal.seal(name, JSON.stringify(tokens)), keep);
  }

  /** Forgets the tokens of `user` for `scheme`. */
  async drop(user: string, scheme: string): Promise<void> {
    await this.store.delete(this.name(user, scheme));
  }

  private name(user: string, scheme: string): string {
    return `user-oauth:vault:${user}:${scheme}`;
  }
}
