/**
 * The token vault: each user's upstream tokens per security scheme, in the server's state store
 * (this process's memory, or Redis shared by every instance), always sealed (seal.ts). Tokens
 * never leave it except on the upstream request; nothing here logs.
 *
 * Records are versioned: each user has a generation (a random id in the store), and a record is
 * sealed for its key name and the generation it was written in. Signing out starts a new
 * generation, so a record saved before and put back in the store (write access to Redis) no longer
 * opens; without a generation nothing opens. A record also carries the time it may be kept until,
 * so a copy put back later than that does not open either.
 */
import { randomBytes } from "node:crypto";
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
/** How long a user's generation lasts: longer than any record; when it ends, the user signs in again. */
const GENERATION_MS = 365 * 24 * 3_600_000;

/** A record as sealed: the tokens and when the record stops being valid. */
interface VaultRecord {
  tokens: UserTokens;
  until: number;
}

/** Tokens by (user, scheme). */
export class TokenVault {
  constructor(
    private readonly store: StateStore,
    private readonly seal: RecordSeal,
    private readonly now: () => number = Date.now,
  ) {}

  /** The tokens of `user` for `scheme`, or undefined (none, another generation, expired or tampered). */
  async get(user: string, scheme: string): Promise<UserTokens | undefined> {
    const generation = await this.generation(user);
    if (generation === undefined) return undefined;
    const name = this.name(user, scheme);
    const sealed = await this.store.get(name);
    const text = sealed === undefined ? undefined : this.seal.open(`${name}\n${generation}`, sealed);
    if (text === undefined) return undefined;
    try {
      const { tokens, until } = JSON.parse(text) as VaultRecord;
      const valid = typeof tokens?.access === "string" && Array.isArray(tokens.scopes) && until > this.now();
      return valid ? tokens : undefined;
    } catch {
      return undefined;
    }
  }

  /** Keeps `tokens` for `user` and `scheme`, replacing earlier ones. */
  async put(user: string, scheme: string, tokens: UserTokens): Promise<void> {
    const generation = (await this.generation(user)) ?? (await this.newGeneration(user, true));
    const name = this.name(user, scheme);
    const keep = tokens.refresh
      ? KEEP_REFRESHABLE_MS
      : tokens.expiresAt
        ? Math.max(1_000, tokens.expiresAt - this.now())
        : KEEP_DEFAULT_MS;
    const record: VaultRecord = { tokens, until: this.now() + keep };
    await this.store.set(name, this.seal.seal(`${name}\n${generation}`, JSON.stringify(record)), keep);
  }

  /** Forgets the tokens of `user` for `scheme`. */
  async drop(user: string, scheme: string): Promise<void> {
    await this.store.delete(this.name(user, scheme));
  }

  /** Signs `user` out: a new generation (no record written before opens again), and the records of `schemes` deleted. */
  async signOut(user: string, schemes: readonly string[]): Promise<void> {
    await this.newGeneration(user, false);
    for (const scheme of schemes) await this.drop(user, scheme);
  }

  /** The user's current generation, or undefined when there is none (or it does not open). */
  private async generation(user: string): Promise<string | undefined> {
    const name = this.generationName(user);
    const sealed = await this.store.get(name);
    return sealed === undefined ? undefined : this.seal.open(name, sealed);
  }

  /**
   * Starts a new generation for `user`. `first`: only when there is none that opens (two instances
   * writing a user's first tokens at once agree on one); otherwise it replaces the current one.
   */
  private async newGeneration(user: string, first: boolean): Promise<string> {
    const name = this.generationName(user);
    const generation = randomBytes(16).toString("base64url");
    const sealed = this.seal.seal(name, generation);
    if (first && (await this.store.create(name, sealed, GENERATION_MS))) return generation;
    const current = first ? await this.generation(user) : undefined;
    if (current !== undefined) return current;
    await this.store.set(name, sealed, GENERATION_MS);
    return generation;
  }

  private name(user: string, scheme: string): string {
    return `user-oauth:vault:${user}:${scheme}`;
  }

  private generationName(user: string): string {
    return `user-oauth:generation:${user}`;
  }
}
