/**
 * The sign-in pages a browser opens: `GET /oauth/upstream/start?flow=…` (the elicited URL:
 * binds the flow to this browser and redirects to the upstream's authorization endpoint, nowhere
 * else) and `GET /oauth/upstream/callback` (the registered redirect URI: checks the flow, exchanges
 * the code, keeps the tokens for the flow's user and shows a plain page). And `POST
 * /oauth/upstream/sign-out`, which signs the calling user out (tokens revoked upstream where the
 * provider offers it, and dropped), and the operator's `POST /oauth/upstream/drop-user?user=…`
 * (with `X-Admin-Secret`), which does so for anyone. Pages take no return URL: no
 * open redirect. Their answers are never cached and send no referrer (the callback URL holds a code).
 * With a browser-user check (resource-server mode, browser-confirm.ts) the start page goes first to the
 * issuer's authorization endpoint, and `GET /oauth/upstream/confirm` (the redirect URI registered
 * there) goes on to the upstream only when the ID token names the flow's user.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "../../protocol/logger.js";
import type { BrowserUserCheck } from "./browser-confirm.js";
import { SignInFlows, type FlowRecord } from "./flows.js";
import type { UserOAuth } from "./sign-in.js";
import { tokensOf } from "./sign-in.js";
import { oauthErrorCode, requestTokens, TokenError } from "./token-endpoint.js";
import { userOf } from "./users.js";

/** The pages' paths. */
export const START_PATH = "/oauth/upstream/start";
export const CALLBACK_PATH = "/oauth/upstream/callback";
export const SIGN_OUT_PATH = "/oauth/upstream/sign-out";
export const DROP_USER_PATH = "/oauth/upstream/drop-user";
export const CONFIRM_PATH = "/oauth/upstream/confirm";
/** Where the browser binding cookie is sent: the start's follow-ups (confirm and callback). */
const COOKIE_PATH = "/oauth/upstream";

/** What the pages need: the sign-in (once the server made it) and the exact redirect URI. */
export interface PagesContext {
  signIn(): UserOAuth | undefined;
  redirectUri(): string;
  logger: Logger;
  /** The operator's secret for `POST /oauth/upstream/drop-user` (`MCP_SIGN_IN_ADMIN_SECRET`); unset: no such endpoint. */
  adminSecret?: string | undefined;
  /** The browser-user check at the MCP authorization server, when its app is registered. */
  check?: BrowserUserCheck | undefined;
}

/** True for the paths of the sign-in pages. */
export function isSignInPath(pathname: string): boolean {
  return (
    pathname === START_PATH ||
    pathname === CALLBACK_PATH ||
    pathname === CONFIRM_PATH ||
    pathname === SIGN_OUT_PATH ||
    pathname === DROP_USER_PATH
  );
}

/** One request to a sign-in page, as each page's handler reads it. */
interface PageRequest {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly query: URLSearchParams;
  readonly context: PagesContext;
  readonly signIn: UserOAuth;
  /** The OAuth subject the guard accepted (resource-server mode). */
  readonly subject: string | undefined;
  /** Who the trusted user header says opens the page (null: no header); undefined without such a header. */
  readonly opener: string | null | undefined;
}

/**
 * Serves one request to a sign-in page. `subject` is the OAuth subject the guard accepted (sign-out
 * in resource-server mode); the start and callback pages are opened by a browser without it.
 */
export async function serveSignInPage(
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  context: PagesContext,
  subject?: string,
): Promise<void> {
  const signIn = context.signIn();
  if (!signIn) return page(res, 503, "Sign-in is not ready yet.");
  const source = signIn.settings.source;
  const request: PageRequest = {
    req,
    res,
    query: new URL(req.url ?? "/", "http://localhost").searchParams,
    context,
    signIn,
    subject,
    // With a trusted user header the gateway says who opens the page; otherwise the browser binding decides.
    opener: source.kind === "header" ? (userOf(source, { headers: req.headers }) ?? null) : undefined,
  };
  if (pathname === SIGN_OUT_PATH) return signOut(request);
  if (pathname === DROP_USER_PATH) return dropUser(request);
  if (req.method !== "GET") return page(res, 405, "Method not allowed.", { allow: "GET" });
  if (request.opener === null) return page(res, 401, "Who opens this page is not known.");
  if (pathname === START_PATH) return startFlow(request);
  if (pathname === CONFIRM_PATH) return confirmOpener(request);
  return finishFlow(request);
}

/** `POST /oauth/upstream/sign-out`: signs the calling user out (sign-in.ts: revoked upstream where offered, dropped). */
async function signOut({ req, res, signIn, subject }: PageRequest): Promise<void> {
  if (req.method !== "POST") return page(res, 405, "Use POST to sign out.", { allow: "POST" });
  const user = userOf(signIn.settings.source, { subject, headers: req.headers });
  if (!user) return page(res, 401, "Who is signing out is not known.");
  await signIn.signOut(user);
  return page(res, 200, "You are signed out of the upstream API here.");
}

/**
 * `POST /oauth/upstream/drop-user?user=…`: the operator signs a user out as sign-out does: `?user=` is the
 * trusted header's value, or the MCP token's subject (resource-server mode).
 */
async function dropUser({ req, res, query, context, signIn }: PageRequest): Promise<void> {
  const given = req.headers["x-admin-secret"];
  if (!context.adminSecret || typeof given !== "string" || !sameSecret(given, context.adminSecret))
    return page(res, 403, "Not allowed.");
  if (req.method !== "POST") return page(res, 405, "Use POST.", { allow: "POST" });
  const { source } = signIn.settings;
  const name = query.get("user") ?? "";
  const user =
    source.kind === "header"
      ? userOf(source, { headers: { [source.header.toLowerCase()]: name } })
      : userOf(source, { subject: name });
  if (!name || !user) return page(res, 400, "Name the user: ?user=…");
  await signIn.signOut(user);
  return page(res, 200, "That user's tokens are dropped.");
}

/** `GET /oauth/upstream/start?flow=…`: binds the flow to this browser, then to the issuer's check or the upstream. */
async function startFlow({ res, query, context, signIn, opener }: PageRequest): Promise<void> {
  const started = await signIn.settings.flows.start(query.get("flow") ?? "", opener ?? undefined);
  if (!started.ok) return page(res, started.status, started.message);
  const secure = context.redirectUri().startsWith("https:") ? "; Secure" : "";
  const cookie = `${SignInFlows.cookieName(started.state)}=${started.browserSecret}; Path=${COOKIE_PATH}; HttpOnly; SameSite=Lax; Max-Age=600${secure}`;
  if (context.check && started.record.confirm) {
    const { verifier, nonce } = started.record.confirm;
    const target = await context.check
      .authorizationUrl(confirmUri(context), started.state, SignInFlows.challenge(verifier), nonce)
      .catch(() => undefined);
    if (!target) return page(res, 502, "The sign-in service of this server could not be reached.");
    return redirect(res, target, cookie);
  }
  return toUpstream(res, signIn, context, started.state, started.record, cookie);
}

/** `GET /oauth/upstream/confirm`: on to the upstream only when the issuer's ID token names the flow's user. */
async function confirmOpener({ req, res, query, context, signIn }: PageRequest): Promise<void> {
  const flows = signIn.settings.flows;
  const state = query.get("state") ?? "";
  const found = context.check
    ? await flows.confirming(state, cookieValue(req.headers.cookie, SignInFlows.cookieName(state)))
    : ({ ok: false, status: 404, message: "Not found." } as const);
  if (!found.ok) return page(res, found.status, found.message);
  const { record, sealed } = found;
  const code = query.get("code");
  let same = false;
  try {
    if (!code) throw new Error(oauthErrorCode(query.get("error") ?? "no code"));
    const who = await context.check!.userOf(code, confirmUri(context), record.confirm.verifier, record.confirm.nonce);
    same = userOf({ kind: "oauth", issuer: who.issuer }, { subject: who.subject }) === record.user;
  } catch (failure) {
    context.logger.warn("sign-in: the browser's user could not be confirmed at the authorization server", {
      reason: failure instanceof TokenError ? failure.reason : "error",
    });
    return page(res, 502, "Who opened this sign-in link could not be confirmed. Retry from your client.");
  }
  if (!same) {
    // The link reached someone else: it ends here, and the user's client asks again.
    await flows.drop(state);
    await flows.announce(state, false);
    context.logger.warn("sign-in: a start link was opened by another user than the one it was made for; refused", {
      scheme: record.scheme,
    });
    return page(res, 403, "This sign-in link was made for another user.");
  }
  if (!(await flows.confirmed(state, sealed, record))) return page(res, 409, "This sign-in link was already used.");
  return toUpstream(res, signIn, context, state, record);
}

/** `GET /oauth/upstream/callback`: checks the flow, exchanges the code and keeps the tokens for the flow's user. */
async function finishFlow({ req, res, query, context, signIn, opener }: PageRequest): Promise<void> {
  const { flows, vault } = signIn.settings;
  const state = query.get("state") ?? "";
  const cookie = cookieValue(req.headers.cookie, SignInFlows.cookieName(state));
  const finished = await flows.finish(state, cookie, opener ?? undefined);
  if (!finished.ok) return page(res, finished.status, finished.message);
  const { record } = finished;
  const error = query.get("error");
  const code = query.get("code");
  if (error || !code) {
    await flows.announce(state, false);
    return page(res, 400, `Sign-in did not complete (${oauthErrorCode(error ?? "no code")}). Retry from your client.`);
  }
  const scheme = signIn.scheme(record.scheme)!;
  try {
    const { tokenUrl } = await signIn.endpointsOf(record.scheme);
    const answer = await requestTokens(
      tokenUrl,
      { grant_type: "authorization_code", code, redirect_uri: context.redirectUri(), code_verifier: record.verifier },
      scheme.client,
      signIn.settings.timeoutMs,
    );
    await vault.put(record.user, record.scheme, tokensOf(answer, record.scopes));
  } catch (failure) {
    await flows.announce(state, false);
    const reason = failure instanceof TokenError ? failure.message : "the token exchange failed";
    context.logger.warn(`sign-in: the code exchange for scheme ${record.scheme} failed`, {
      reason: failure instanceof TokenError ? failure.reason : "error",
    });
    return page(res, 502, `Sign-in did not complete: ${reason}.`);
  }
  await flows.announce(state, true);
  return page(res, 200, "You are signed in. You can close this page and return to your client.", {
    "set-cookie": `${SignInFlows.cookieName(state)}=; Path=${COOKIE_PATH}; HttpOnly; SameSite=Lax; Max-Age=0`,
  });
}

/** Redirects the browser to the upstream's authorization endpoint for flow `state` (PKCE S256, exact redirect URI). */
async function toUpstream(
  res: ServerResponse,
  signIn: UserOAuth,
  context: PagesContext,
  state: string,
  record: FlowRecord,
  cookie?: string,
): Promise<void> {
  const scheme = signIn.scheme(record.scheme)!;
  const endpoints = await signIn.endpointsOf(record.scheme).catch(() => undefined);
  if (!endpoints) return page(res, 502, "The upstream's sign-in endpoints could not be found.");
  const target = new URL(endpoints.authorizationUrl);
  const parameters = {
    ...scheme.authorizeParameters,
    response_type: "code",
    client_id: scheme.client.id,
    redirect_uri: context.redirectUri(),
    state,
    code_challenge: SignInFlows.challenge(record.verifier),
    code_challenge_method: "S256",
    ...(record.scopes.length > 0 ? { scope: record.scopes.join(" ") } : {}),
  };
  for (const [name, value] of Object.entries(parameters)) target.searchParams.set(name, value);
  redirect(res, target.href, cookie);
}

/** A 302 to `location` that is never cached and sends no referrer. */
function redirect(res: ServerResponse, location: string, cookie?: string): void {
  res.writeHead(302, {
    location,
    ...(cookie ? { "set-cookie": cookie } : {}),
    "cache-control": "no-store",
    "referrer-policy": "no-referrer",
  });
  res.end();
}

/** The redirect URI registered at the MCP authorization server for the browser-user check. */
function confirmUri(context: PagesContext): string {
  return `${context.redirectUri().slice(0, -CALLBACK_PATH.length)}${CONFIRM_PATH}`;
}

/** A plain HTML page with one message (escaped). */
function page(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  const text = message.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  res.writeHead(status, {
    "content-type": "text/html; charset=utf-8",
    "cache-control": "no-store",
    "referrer-policy": "no-referrer",
    "content-security-policy": "default-src 'none'",
    "x-frame-options": "DENY",
    ...headers,
  });
  res.end(
    `<!doctype html><html><head><meta charset="utf-8"><title>Sign-in</title></head><body><p id="message">${text}</p></body></html>`,
  );
}

/** Compares two secrets in constant time (by their digests). */
function sameSecret(a: string, b: string): boolean {
  return timingSafeEqual(createHash("sha256").update(a).digest(), createHash("sha256").update(b).digest());
}

/** The value of cookie `name` in a Cookie header. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const at = part.indexOf("=");
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}
