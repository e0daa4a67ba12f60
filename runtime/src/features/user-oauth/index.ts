/**
 * Feature `user-oauth`, included when the API declares an OAuth authorization code flow or OpenID
 * Connect: each user signs in to the upstream API and calls it as themselves. A scheme is signed
 * in per user when its app is registered (`<KEY>_CLIENT_ID`, and `_CLIENT_SECRET` for a
 * confidential client) and no ready token (`<KEY>`) is set. The user is the OAuth resource-server
 * mode's subject (`--oauth-issuer`), else the value of `--trust-user-header` (HTTP), else on stdio
 * the local user. Tokens go to a vault in the state store: with Redis it needs
 * `MCP_TOKEN_VAULT_SECRET`. `MCP_USER_SIGN_IN=off` turns it off (client credentials serve everyone).
 * In resource-server mode with an app registered at the issuer (`MCP_SIGN_IN_OIDC_CLIENT_ID`,
 * `MCP_SIGN_IN_OIDC_CLIENT_SECRET`), a start URL confirms its browser's user there first.
 */
import type { Feature } from "../../cli/features.js";
import { nonEmpty } from "../../cli/settings.js";
import type { SecuritySchemeDefinition } from "../../api/types.js";
import { silentLogger, type Logger } from "../../protocol/logger.js";
import { BrowserUserCheck } from "./browser-confirm.js";
import { SignInFlows } from "./flows.js";
import { LoopbackPages } from "./loopback.js";
import { CALLBACK_PATH, isSignInPath, serveSignInPage, SIGN_OUT_PATH, START_PATH } from "./pages.js";
import { MIN_VAULT_SECRET_CHARS, RecordSeal } from "./seal.js";
import { UserOAuth, type SignInScheme } from "./sign-in.js";
import type { UserSource } from "./users.js";
import { TokenVault } from "./vault.js";
import { MemoryStateStore } from "../state/memory.js";
import { DEFAULT_HTTP_HOST, isLoopbackHost } from "../../transport/transport.js";

/** How long a call waits for its user to finish signing in (default). */
const DEFAULT_WAIT_MS = 120_000;

export const userOauth: Feature = {
  name: "user-oauth",
  flags: { "trust-user-header": { type: "string" }, "allow-forwarded-sign-in-links": { type: "boolean" } },
  usage: `  --trust-user-header NAME
                     HTTP without --oauth-issuer: the user a request comes from is the value of
                     header NAME, which a trusted gateway sets; requests without it are refused.
                     Needed for per-user upstream sign-in
  --allow-forwarded-sign-in-links
                     UNSAFE. --oauth-issuer without MCP_SIGN_IN_OIDC_CLIENT_ID: start anyway, with
                     no check of who opens a sign-in link, so whoever opens a user's link signs in
                     for that user (a forwarded link gives him the opener's upstream account)
`,
  plugs({ flags, env, info, http, origin, logger }) {
    const schemes = signInSchemes(info.securitySchemes ?? [], env);
    const header = nonEmpty(flags["trust-user-header"] as string | undefined);
    if (header && !http) throw new Error("--trust-user-header applies to --http only (stdio has one user)");
    if (header && flags["oauth-issuer"])
      throw new Error("--trust-user-header and --oauth-issuer both say who the user is: choose one");
    const host = (flags.host as string | undefined) ?? DEFAULT_HTTP_HOST;
    if (header && !isLoopbackHost(host))
      logger.warn(
        `--trust-user-header ${header}: this server listens on ${host}, beyond this machine: whoever reaches it without the gateway can name any user in that header; let only the gateway reach it (bind to 127.0.0.1, or a network only the gateway is on)`,
      );
    // Named explicitly by the operator: a request without it comes from no known user, and is refused.
    const guard = header ? { userHeader: header } : {};
    if (schemes.length === 0) return guard;
    const names = schemes.map((s) => s.definition.key).join(", ");
    const issuer = nonEmpty(flags["oauth-issuer"] as string | undefined);
    const source: UserSource = !http
      ? { kind: "local" }
      : issuer
        ? { kind: "oauth", issuer }
        : header
          ? { kind: "header", header }
          : fail(
              `each user signs in to ${names} (its client id is set), so this HTTP server must know who the user is: run it as an OAuth resource server (--oauth-issuer) or behind a gateway that names the user (--trust-user-header <Name>)`,
            );
    const publicUrl = origin?.replace(/\/+$/, "");
    if (http && !publicUrl)
      throw new Error(`per-user sign-in (${names}) needs the server's public address for its callback: --public-url`);
    if (!http && publicUrl && !/^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?$/.test(publicUrl))
      throw new Error("on stdio --public-url names the loopback sign-in listener: http://127.0.0.1:<port>");
    const secret = nonEmpty(env.MCP_TOKEN_VAULT_SECRET);
    if (secret !== undefined && secret.length < MIN_VAULT_SECRET_CHARS)
      throw new Error(`MCP_TOKEN_VAULT_SECRET must have at least ${MIN_VAULT_SECRET_CHARS} characters`);
    const check = browserCheck(http ? issuer : undefined, env, flags[RISK_FLAG] === true, logger);
    const waitMs = Number(nonEmpty(env.MCP_SIGN_IN_WAIT_MS) ?? DEFAULT_WAIT_MS);
    let made: UserOAuth | undefined;
    const loopback = http
      ? undefined
      : new LoopbackPages(publicUrl ? Number(new URL(publicUrl).port || 80) : 0, {
          signIn: () => made,
          logger: silentLogger,
        });
    return {
      ...guard,
      userSignIn({ state = new MemoryStateStore(), logger }) {
        if (state.shared && secret === undefined)
          throw new Error(
            `per-user sign-in keeps users' tokens in the shared state store: set MCP_TOKEN_VAULT_SECRET (at least ${MIN_VAULT_SECRET_CHARS} characters, the same on every instance) to encrypt them`,
          );
        const seal = new RecordSeal(state.shared ? secret : undefined);
        made = new UserOAuth({
          schemes,
          source,
          vault: new TokenVault(state, seal),
          flows: new SignInFlows(state, seal, Date.now, check !== undefined),
          startUrl: async (startId) =>
            `${loopback ? await loopback.ready() : publicUrl}${START_PATH}?flow=${encodeURIComponent(startId)}`,
          waitMs: Number.isFinite(waitMs) && waitMs >= 0 ? waitMs : DEFAULT_WAIT_MS,
          timeoutMs: 15_000,
          serverName: info.name,
          logger,
        });
        return made;
      },
      ...(http
        ? {
            httpEndpoints: (_server, _receive, logger) => ({
              owns: isSignInPath,
              // The browser opens start, confirm and callback without the MCP token; sign-out needs it.
              // The operator's endpoint checks its own secret.
              isPublic: (pathname) => pathname !== SIGN_OUT_PATH,
              handle: (req, res, pathname, access) =>
                serveSignInPage(
                  req,
                  res,
                  pathname,
                  {
                    signIn: () => made,
                    redirectUri: () => `${publicUrl}${CALLBACK_PATH}`,
                    logger,
                    adminSecret: nonEmpty(env.MCP_SIGN_IN_ADMIN_SECRET),
                    check,
                  },
                  pathname === SIGN_OUT_PATH ? access?.principal.subject : undefined,
                ),
              closeAll: () => {},
            }),
          }
        : {}),
    };
  },
};

/** The schemes each user signs in to: authorization code or OpenID Connect, with a client id and no ready token. */
export function signInSchemes(schemes: readonly SecuritySchemeDefinition[], env: NodeJS.ProcessEnv): SignInScheme[] {
  const value = (name: string | undefined) => (name ? nonEmpty(env[name]) : undefined);
  // The operator's way back to one account for everyone (client credentials, as before the feature).
  if (/^(off|0|false|no)$/i.test(env.MCP_USER_SIGN_IN ?? "")) return [];
  return schemes
    .filter((scheme) => scheme.authorizationCode !== undefined || scheme.type === "openIdConnect")
    .filter((scheme) => value(scheme.env.clientId) !== undefined && value(scheme.env.token) === undefined)
    .map((definition) => ({
      definition,
      client: { id: value(definition.env.clientId)!, secret: value(definition.env.clientSecret) },
      extraScopes: (value(definition.env.scopes) ?? "").split(/[\s,]+/).filter(Boolean),
      // Named beside the client id (`<KEY>_CLIENT_ID` → `<KEY>_AUTHORIZE_PARAMS`).
      authorizeParameters: Object.fromEntries(
        new URLSearchParams(value(definition.env.clientId?.replace(/CLIENT_ID$/, "AUTHORIZE_PARAMS")) ?? ""),
      ),
    }));
}

/** The flag with which the operator accepts sign-in links that any browser may complete. */
const RISK_FLAG = "allow-forwarded-sign-in-links";

/**
 * The browser-user check of resource-server mode (`issuer`), from `MCP_SIGN_IN_OIDC_CLIENT_ID`.
 * Required there: a start link's first browser would otherwise be bound to it, whoever holds it, so
 * a user could send his link to someone else and get her upstream tokens. The cookie set when a link
 * is opened cannot prove who the link is for (the link is made for an MCP client, not a browser);
 * only the issuer can say who the browser's user is. Without the check the server starts only when
 * the operator names the risk (`--allow-forwarded-sign-in-links`), and says so in its log.
 */
function browserCheck(
  issuer: string | undefined,
  env: NodeJS.ProcessEnv,
  riskAccepted: boolean,
  logger: Logger,
): BrowserUserCheck | undefined {
  const checkId = nonEmpty(env.MCP_SIGN_IN_OIDC_CLIENT_ID);
  if (checkId !== undefined && !issuer)
    throw new Error(
      "MCP_SIGN_IN_OIDC_CLIENT_ID applies to the OAuth resource-server mode (--http with --oauth-issuer)",
    );
  if (riskAccepted && !(issuer && checkId === undefined))
    throw new Error(`--${RISK_FLAG} applies to --oauth-issuer without MCP_SIGN_IN_OIDC_CLIENT_ID`);
  if (issuer && checkId === undefined) {
    if (!riskAccepted)
      throw new Error(
        `per-user sign-in in resource-server mode needs the browser check: register this server at ${issuer} (redirect URI <public URL>/oauth/upstream/confirm, scope openid) and set MCP_SIGN_IN_OIDC_CLIENT_ID (and MCP_SIGN_IN_OIDC_CLIENT_SECRET); without it, whoever opens a user's sign-in link signs in for that user. To start anyway, pass --${RISK_FLAG}`,
      );
    logger.warn(
      `--${RISK_FLAG}: sign-in links are not checked at ${issuer}: whoever opens a user's sign-in link signs in for that user`,
    );
    return undefined;
  }
  return checkId !== undefined && issuer
    ? new BrowserUserCheck(issuer, { id: checkId, secret: nonEmpty(env.MCP_SIGN_IN_OIDC_CLIENT_SECRET) }, 15_000)
    : undefined;
}

function fail(message: string): never {
  throw new Error(message);
}
