/**
 * Pending sign-ins. A flow is made for one user, one scheme and a set of scopes when a call needs
 * tokens the user does not have. Its start URL (sent to the user's client in the elicitation)
 * carries only a random id; opening it binds the flow to that browser (an HttpOnly cookie, the
 * first opening wins) and redirects to the upstream's authorization endpoint with PKCE (S256) and
 * a random `state`. The callback completes only the flow its `state` names, only in the browser
 * that started it, only once and only before the flow expires; with a trusted user header, start
 * and callback also require the flow's own user. Where the browser's user can be confirmed at the
 * MCP authorization server (`confirmUser`, see browser-confirm.ts), the callback also requires that step done. Each user has a bounded number of pending flows
 * (the oldest go). Records live in the state store, sealed, so any instance completes them.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { StateStore } from "../../state/state.js";
import type { RecordSeal } from "./seal.js";
import { digest } from "./users.js";

/** How long a sign-in may take from the elicitation to the callback. */
export const FLOW_TTL_MS = 10 * 60_000;
/** Pending flows one user may have; a new one beyond drops the oldest. */
export const MAX_FLOWS_PER_USER = 5;
const DONE_CHANNEL = "user-oauth:done";

/** One pending sign-in, as stored. */
export interface FlowRecord {
  user: string;
  scheme: string;
  scopes: string[];
  /** PKCE code verifier. */
  verifier: string;
  /** Id of the start URL. */
  startId: string;
  /** `Date.now()` when made. */
  created: number;
  /** Digest of the browser binding, set when the start URL is first opened. */
  browser?: string;
  /** The browser-user check (`confirmUser`): its PKCE verifier and nonce, and whether it passed. */
  confirm?: { verifier: string; nonce: string; done?: boolean };
}

/** What opening a start URL or the callback gives: go on, or a refusal page. */
export type FlowStep<T> = ({ ok: true } & T) | { ok: false; status: number; message: string };

/** Pending sign-in flows over a state store. */
export class SignInFlows {
  private readonly waiters = new Map<string, Set<(ok: boolean) => void>>();
  private subscribed: Promise<void> | undefined;

  constructor(
    private readonly store: StateStore,
    private readonly seal: RecordSeal,
    private readonly now: () => number = Date.now,
    /** The browser's user is confirmed at the MCP authorization server before the upstream's page. */
    readonly confirmUser = false,
  ) {}

  /** A new flow for `user`; returns its `state` and start id. Drops the user's oldest beyond the bound. */
  async create(user: string, scheme: string, scopes: string[]): Promise<{ state: string; startId: string }> {
    const state = randomBytes(32).toString("base64url");
    const startId = randomBytes(32).toString("base64url");
    const record: FlowRecord = {
      user,
      scheme,
      scopes,
      verifier: randomBytes(32).toString("base64url"),
      startId,
      created: this.now(),
    };
    await this.put(state, record);
    await this.store.set(this.startName(startId), this.seal.seal(this.startName(startId), state), FLOW_TTL_MS);
    await this.remember(user, state);
    return { state, startId };
  }

  /**
   * Opens the start URL `startId`: binds the flow to a new browser secret (the cookie value
   * returned) unless a browser already did. `user` is the opener when the server can tell (trusted
   * header), and must then be the flow's.
   */
  async start(
    startId: string,
    user: string | undefined,
  ): Promise<FlowStep<{ state: string; record: FlowRecord; browserSecret: string }>> {
    const name = this.startName(startId);
    const sealed = await this.store.get(name);
    const state = sealed === undefined ? undefined : this.seal.open(name, sealed);
    const found = state === undefined ? undefined : await this.get(state);
    if (!state || !found) return { ok: false, status: 404, message: "This sign-in link is unknown or has expired." };
    if (user !== undefined && user !== found.record.user)
      return { ok: false, status: 403, message: "This sign-in link was made for another user." };
    if (found.record.browser !== undefined)
      return { ok: false, status: 409, message: "This sign-in link was already opened." };
    const browserSecret = randomBytes(32).toString("base64url");
    const bound: FlowRecord = { ...found.record, browser: digest(browserSecret) };
    if (this.confirmUser)
      bound.confirm = { verifier: randomBytes(32).toString("base64url"), nonce: randomBytes(16).toString("base64url") };
    // Compare-and-set: of two openings at once, one wins.
    const name2 = this.flowName(state);
    if (!(await this.store.replace(name2, found.sealed, this.seal.seal(name2, JSON.stringify(bound)))))
      return { ok: false, status: 409, message: "This sign-in link was already opened." };
    await this.store.delete(name);
    return { ok: true, state, record: bound, browserSecret };
  }

  /**
   * The callback's check: the flow `state` names, started in this browser (`browserSecret` from
   * its cookie), for `user` when the server can tell. The flow is used up (deleted) on success.
   */
  async finish(
    state: string,
    browserSecret: string | undefined,
    user: string | undefined,
  ): Promise<FlowStep<{ record: FlowRecord }>> {
    const found = await this.get(state);
    if (!found) return { ok: false, status: 400, message: "This sign-in is unknown, was completed or has expired." };
    const { record } = found;
    if (!boundTo(record, browserSecret))
      return { ok: false, status: 403, message: "This sign-in was started in another browser." };
    if (this.confirmUser && record.confirm?.done !== true)
      return { ok: false, status: 403, message: "Who opened this sign-in was not confirmed." };
    if (user !== undefined && user !== record.user)
      return { ok: false, status: 403, message: "This sign-in belongs to another user." };
    if (!(await this.store.delete(this.flowName(state))))
      return { ok: false, status: 400, message: "This sign-in was already completed." };
    return { ok: true, record };
  }

  /**
   * The browser-user check's return (`confirmUser`): the flow `state` names, started in this
   * browser, not yet confirmed.
   */
  async confirming(
    state: string,
    browserSecret: string | undefined,
  ): Promise<FlowStep<{ record: FlowRecord & { confirm: NonNullable<FlowRecord["confirm"]> }; sealed: string }>> {
    const found = await this.get(state);
    if (!found || !found.record.confirm || found.record.confirm.done)
      return { ok: false, status: 400, message: "This sign-in is unknown, was completed or has expired." };
    if (!boundTo(found.record, browserSecret))
      return { ok: false, status: 403, message: "This sign-in was started in another browser." };
    return {
      ok: true,
      record: found.record as FlowRecord & { confirm: NonNullable<FlowRecord["confirm"]> },
      sealed: found.sealed,
    };
  }

  /** Marks flow `state` confirmed for its user; false when it changed meanwhile (confirmed twice at once). */
  async confirmed(state: string, sealed: string, record: FlowRecord): Promise<boolean> {
    const name = this.flowName(state);
    const next: FlowRecord = { ...record, confirm: { ...record.confirm!, done: true } };
    return this.store.replace(name, sealed, this.seal.seal(name, JSON.stringify(next)));
  }

  /** Ends flow `state` unfinished (its link was opened by someone else). */
  async drop(state: string): Promise<void> {
    await this.store.delete(this.flowName(state));
  }

  /** The PKCE challenge of a verifier (S256). */
  static challenge(verifier: string): string {
    return createHash("sha256").update(verifier).digest("base64url");
  }

  /** The cookie name binding the browser to flow `state` (several flows may run in one browser). */
  static cookieName(state: string): string {
    return `mcp_sign_in_${digest(`cookie\n${state}`).slice(0, 16)}`;
  }

  /** Tells every instance that flow `state` ended (signed in or not). */
  async announce(state: string, ok: boolean): Promise<void> {
    await this.store.publish(DONE_CHANNEL, JSON.stringify({ flow: digest(state), ok }));
  }

  /**
   * Whether flow `state` ends signed in within `ms` (false on failure, timeout or abort).
   * `done` says whether it already has (it may end before the wait begins).
   */
  async wait(state: string, ms: number, signal: AbortSignal, done: () => Promise<boolean>): Promise<boolean> {
    await this.listen();
    const key = digest(state);
    return new Promise((resolve) => {
      const waiters = this.waiters.get(key) ?? new Set();
      this.waiters.set(key, waiters);
      const finish = (ok: boolean): void => {
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        waiters.delete(finish);
        if (waiters.size === 0) this.waiters.delete(key);
        resolve(ok);
      };
      const onAbort = (): void => finish(false);
      const timer = setTimeout(() => finish(false), ms);
      waiters.add(finish);
      if (signal.aborted) onAbort();
      else signal.addEventListener("abort", onAbort, { once: true });
      done().then(
        (already) => already && finish(true),
        () => {},
      );
    });
  }

  private listen(): Promise<void> {
    this.subscribed ??= this.store.subscribe(DONE_CHANNEL, (message) => {
      try {
        const { flow, ok } = JSON.parse(message) as { flow: string; ok: boolean };
        for (const finish of [...(this.waiters.get(flow) ?? [])]) finish(ok === true);
      } catch {
        // not ours
      }
    });
    return this.subscribed;
  }

  private async get(state: string): Promise<{ record: FlowRecord; sealed: string } | undefined> {
    const name = this.flowName(state);
    const sealed = await this.store.get(name);
    const text = sealed === undefined ? undefined : this.seal.open(name, sealed);
    if (text === undefined) return undefined;
    const record = JSON.parse(text) as FlowRecord;
    if (record.created + FLOW_TTL_MS <= this.now()) return undefined;
    return { record, sealed: sealed! };
  }

  private async put(state: string, record: FlowRecord): Promise<void> {
    const name = this.flowName(state);
    await this.store.set(name, this.seal.seal(name, JSON.stringify(record)), FLOW_TTL_MS);
  }

  /** Adds `state` to the user's pending flows, dropping expired ones and the oldest beyond the bound. */
  private async remember(user: string, state: string): Promise<void> {
    const name = `user-oauth:pending:${user}`;
    const sealed = await this.store.get(name);
    const text = sealed === undefined ? undefined : this.seal.open(name, sealed);
    let pending = (text ? (JSON.parse(text) as [string, number][]) : []).filter(
      ([, created]) => created + FLOW_TTL_MS > this.now(),
    );
    pending.push([state, this.now()]);
    const dropped = pending.slice(0, Math.max(0, pending.length - MAX_FLOWS_PER_USER));
    pending = pending.slice(dropped.length);
    for (const [old] of dropped) await this.store.delete(this.flowName(old));
    await this.store.set(name, this.seal.seal(name, JSON.stringify(pending)), FLOW_TTL_MS);
  }

  private flowName(state: string): string {
    return `user-oauth:flow:${digest(state)}`;
  }

  private startName(startId: string): string {
    return `user-oauth:start:${digest(startId)}`;
  }
}

/** Whether `record` was bound to the browser holding `browserSecret`. */
function boundTo(record: FlowRecord, browserSecret: string | undefined): boolean {
  return (
    record.browser !== undefined && browserSecret !== undefined && sameDigest(record.browser, digest(browserSecret))
  );
}

function sameDigest(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
