/**
 * The complete body of a result the budget shortened, one link away: kept for a bounded time and
 * size, readable with `resources/read` only by the caller that made the call (the same OAuth
 * subject and the same session or connection scope), and only with the link's unguessable id.
 *
 * With a shared state store (feature `redis`, sealed at rest) every instance can serve a link;
 * without one the bodies stay in this process. The per-caller bound is kept by the instance that
 * stored the bodies (the oldest link of a caller goes first).
 */
import { createHash, randomBytes } from "node:crypto";
import type { StateStore } from "../state/state.js";
import type { RequestContext } from "./request-context.js";

/** Scheme of the links' URIs: `result://<id>`. */
export const RESULT_URI_PREFIX = "result://";
/** How long a link can be read. */
export const RESULT_LINK_TTL_MS = 10 * 60_000;
/** Characters of complete bodies one caller may have stored at once (oldest dropped first). */
export const RESULT_LINK_MAX_CHARS = 20_000_000;
/** Links one caller may have at once (oldest dropped first). */
export const RESULT_LINK_MAX_COUNT = 32;

/** What one link keeps: a text, or binary content as base64 (`blob`). */
interface StoredResult {
  owner: string;
  mimeType: string;
  text?: string;
  blob?: string;
}

/** What `resources/read` of a link returns. */
export type LinkContents = { uri: string; mimeType: string } & ({ text: string } | { blob: string });

/** The limits of the links (tests shorten them). */
export interface ResultLinkLimits {
  ttlMs: number;
  maxChars: number;
  maxCount: number;
}

/** Who may read a link: a hash of the caller's OAuth subject and its session or connection scope. */
export function resultOwner(ctx: RequestContext): string {
  return createHash("sha256")
    .update(`${ctx.subject ?? ""}\n${ctx.scope ?? ""}`)
    .digest("base64url");
}

/** The stored complete bodies of shortened results. */
export class ResultLinks {
  private readonly local = new Map<string, StoredResult & { expires: number }>();
  /** Per owner, the links this instance stored, oldest first, with their sizes. */
  private readonly byOwner = new Map<string, Array<{ id: string; chars: number; expires: number }>>();

  constructor(
    private readonly store: StateStore | undefined,
    private readonly limits: ResultLinkLimits = {
      ttlMs: RESULT_LINK_TTL_MS,
      maxChars: RESULT_LINK_MAX_CHARS,
      maxCount: RESULT_LINK_MAX_COUNT,
    },
  ) {}

  /**
   * Keeps `text` (or, with `binary`, base64 content) for `owner`; the link's URI, or undefined when
   * it is larger than a caller's whole allowance.
   */
  async save(owner: string, text: string, mimeType: string, binary = false): Promise<string | undefined> {
    if (text.length > this.limits.maxChars) return undefined;
    const content = binary ? { blob: text } : { text };
    const id = randomBytes(18).toString("base64url");
    const expires = Date.now() + this.limits.ttlMs;
    await this.makeRoom(owner, text.length);
    if (this.store) await this.store.set(key(id), JSON.stringify({ owner, mimeType, ...content }), this.limits.ttlMs);
    else this.local.set(id, { owner, mimeType, ...content, expires });
    const mine = this.byOwner.get(owner) ?? [];
    mine.push({ id, chars: text.length, expires });
    this.byOwner.set(owner, mine);
    return `${RESULT_URI_PREFIX}${id}`;
  }

  /** The contents of a link for `owner`; undefined when unknown, expired or another caller's. */
  async read(owner: string, uri: string): Promise<LinkContents | undefined> {
    if (!uri.startsWith(RESULT_URI_PREFIX)) return undefined;
    const id = uri.slice(RESULT_URI_PREFIX.length);
    if (!/^[A-Za-z0-9_-]{24}$/.test(id)) return undefined;
    let stored: StoredResult | undefined;
    if (this.store) {
      const raw = await this.store.get(key(id));
      stored = raw === undefined ? undefined : (JSON.parse(raw) as StoredResult);
    } else {
      const entry = this.local.get(id);
      stored = entry && entry.expires > Date.now() ? entry : undefined;
    }
    if (!stored || stored.owner !== owner) return undefined;
    return stored.blob !== undefined
      ? { uri, mimeType: stored.mimeType, blob: stored.blob }
      : { uri, mimeType: stored.mimeType, text: stored.text ?? "" };
  }

  /** Drops expired links and then the owner's oldest until `chars` more fit its allowance. */
  private async makeRoom(owner: string, chars: number): Promise<void> {
    const now = Date.now();
    for (const [id, entry] of this.local) if (entry.expires <= now) this.local.delete(id);
    const mine = (this.byOwner.get(owner) ?? []).filter((link) => link.expires > now);
    let used = mine.reduce((sum, link) => sum + link.chars, 0);
    while (mine.length > 0 && (used + chars > this.limits.maxChars || mine.length + 1 > this.limits.maxCount)) {
      const oldest = mine.shift()!;
      used -= oldest.chars;
      if (this.store) await this.store.delete(key(oldest.id));
      else this.local.delete(oldest.id);
    }
    if (mine.length > 0) this.byOwner.set(owner, mine);
    else this.byOwner.delete(owner);
    for (const [other, links] of this.byOwner)
      if (links.every((link) => link.expires <= now)) this.byOwner.delete(other);
  }
}

function key(id: string): string {
  return `result:${id}`;
}
