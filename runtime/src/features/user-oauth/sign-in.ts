/**
 * Per-user upstream credentials for operation calls: the calling user's tokens for the scheme the
 * operation needs (refreshed shortly before expiry, and once after a 401), or a sign-in asked of
 * the user through a URL elicitation in the client's era:
 * - modern clients that declared URL elicitation: an `input_required` result; the retry waits
 *   (bounded) for the sign-in to complete;
 * - legacy clients that declared it: `elicitation/create` (mode `url`) during the call, then the
 *   call waits; when the request cannot carry it (no stream) or the wait ends first, the error
 *   -32042 (URL elicitation required) names the URL for a retry;
 * - other clients: an `isError` result with the URL, to open and retry after signing in.
 * An operation needing more scopes than a user's tokens have asks again for the union.
 */
import type { SecurityRequirement, SecuritySchemeDefinition } from "../../api/types.js";
import { textResult } from "../../api/tool-outcome.js";
import type { CallToolResult, InputRequiredResult } from "../../api/mcp-types.js";
import type { Logger } from "../../protocol/logger.js";
import { RpcError } from "../../protocol/jsonrpc.js";
import { isRecord } from "../../protocol/own.js";
import type { UserSignIn, UserSignInCall, UserSignInOutcome } from "../../server/call-slots.js";
import { FLOW_TTL_MS, type SignInFlows } from "./flows.js";
import {
  discoverEndpoints,
  requestTokens,
  revokeToken,
  TokenError,
  type AuthorizationEndpoints,
  type OAuthClient,
} from "./token-endpoint.js";
import { userOf, type UserSource } from "./users.js";
import type { TokenVault, UserTokens } from "./vault.js";

/** JSON-RPC error of 2025-11-25: the request needs a URL elicitation first. */
export const URL_ELICITATION_REQUIRED = -32042;
/** Tokens this close to expiry are refreshed before use. */
const REFRESH_MARGIN_MS = 60_000;
/** The key of the sign-in request in an `input_required` result. */
const INPUT_KEY = "sign_in";

/** A scheme each user signs in to. */
export interface SignInScheme {
  definition: SecuritySchemeDefinition;
  client: OAuthClient;
  /** Scopes from `<KEY>_SCOPES` asked for besides the operation's. */
  extraScopes: string[];
  /**
   * Further parameters of the authorization request from `<KEY>_AUTHORIZE_PARAMS` (a query string,
   * e.g. Google's `access_type=offline&prompt=consent`); they never replace the flow's own.
   */
  authorizeParameters: Record<string, string>;
}

/** What the sign-in needs from the rest of the feature. */
export interface SignInSettings {
  schemes: readonly SignInScheme[];
  source: UserSource;
  vault: TokenVault;
  flows: SignInFlows;
  /** The start URL of a flow, made when the flow is (stdio: once the loopback listener is up). */
  startUrl(startId: string): Promise<string>;
  /** How long a call waits for the user to finish signing in. */
  waitMs: number;
  timeoutMs: number;
  serverName: string;
  logger: Logger;
}

/** The per-user credentials of a server. */
export class UserOAuth implements UserSignIn {
  private readonly schemes: Map<string, SignInScheme>;
  private readonly endpoints = new Map<string, Promise<AuthorizationEndpoints>>();
  /** Refreshes in flight, by user and scheme: concurrent calls share one (refresh tokens may rotate). */
  private readonly refreshing = new Map<string, Promise<UserTokens | undefined>>();

  constructor(readonly settings: SignInSettings) {
    this.schemes = new Map(settings.schemes.map((scheme) => [scheme.definition.key, scheme]));
  }

  /** The scheme a user signs in to, by key. */
  scheme(key: string): SignInScheme | undefined {
    return this.schemes.get(key);
  }

  /** The keys of the schemes users sign in to. */
  keys(): string[] {
    return [...this.schemes.keys()];
  }

  async prepare(call: UserSignInCall): Promise<UserSignInOutcome | undefined> {
    const needs = this.signInNeeds(call.tool.http.security);
    if (!needs) return undefined;
    const user = userOf(this.settings.source, call.request.ctx);
    if (!user) {
      const how =
        this.settings.source.kind === "header"
          ? `the request has no ${this.settings.source.header} header`
          : "the request carries no OAuth subject";
      return { result: textResult(`Tool ${call.tool.name} acts as you upstream, but ${how}.`, true) };
    }
    const credentials: Record<string, string> = {};
    for (const [key, scopes] of needs) {
      let tokens = await this.usable(user, key, scopes);
      if (!tokens) {
        const asked = await this.askSignIn(call, user, key, scopes);
        if (asked) return { result: asked };
        tokens = await this.usable(user, key, scopes);
        if (!tokens)
          return { result: textResult(`Signing in for ${call.tool.name} did not give usable tokens; retry.`, true) };
      }
      credentials[key] = tokens.access;
    }
    return {
      credentials,
      renew: async () => {
        const renewed: Record<string, string> = {};
        for (const key of Object.keys(credentials)) {
          const tokens = await this.refresh(user, key);
          if (!tokens) return undefined;
          renewed[key] = tokens.access;
        }
        return renewed;
      },
    };
  }

  /**
   * The sign-in schemes of the first alternative that has any, with the scopes each needs
   * (operation scopes plus `<KEY>_SCOPES`); undefined when no alternative has one.
   */
  private signInNeeds(requirements: SecurityRequirement[] | undefined): [string, string[]][] | undefined {
    for (const alternative of requirements ?? []) {
      const needs = Object.entries(alternative)
        .filter(([key]) => this.schemes.has(key))
        .map(([key, scopes]): [string, string[]] => [key, union(scopes, this.schemes.get(key)!.extraScopes)]);
      if (needs.length > 0) return needs;
    }
    return undefined;
  }

  /** The user's tokens for `key` when they cover `scopes`, refreshed first when about to expire. */
  private async usable(user: string, key: string, scopes: string[]): Promise<UserTokens | undefined> {
    let tokens = await this.settings.vault.get(user, key);
    if (!tokens || !scopes.every((scope) => tokens!.scopes.includes(scope))) return undefined;
    if (tokens.expiresAt !== undefined && tokens.expiresAt - REFRESH_MARGIN_MS <= Date.now()) {
      tokens = tokens.refresh ? await this.refresh(user, key) : undefined;
      if (!tokens) await this.settings.vault.drop(user, key);
    }
    return tokens;
  }

  /**
   * New tokens from the refresh token (one refresh per user and scheme at a time); undefined, and
   * the tokens dropped, when there is none or the upstream refuses it (revoked, `invalid_grant`).
   */
  refresh(user: string, key: string): Promise<UserTokens | undefined> {
    const id = `${user}\n${key}`;
    let running = this.refreshing.get(id);
    if (!running) {
      running = this.refreshNow(user, key).finally(() => this.refreshing.delete(id));
      this.refreshing.set(id, running);
    }
    return running;
  }

  private async refreshNow(user: string, key: string): Promise<UserTokens | undefined> {
    const { vault, timeoutMs, logger } = this.settings;
    const old = await vault.get(user, key);
    const scheme = this.schemes.get(key)!;
    if (!old?.refresh) {
      await vault.drop(user, key);
      return undefined;
    }
    try {
      const { tokenUrl } = await this.endpointsOf(key);
      const answer = await requestTokens(
        tokenUrl,
        { grant_type: "refresh_token", refresh_token: old.refresh },
        scheme.client,
        timeoutMs,
      );
      const tokens = tokensOf(answer, old.scopes, old.refresh);
      await vault.put(user, key, tokens);
      return tokens;
    } catch (error) {
      logger.info(`sign-in: refreshing the tokens of scheme ${key} failed; the user signs in again`, {
        reason: error instanceof TokenError ? error.reason : "error",
      });
      await vault.drop(user, key);
      return undefined;
    }
  }

  /**
   * Signs `user` out of every scheme: their tokens revoked upstream where the provider offers
   * revocation (the refresh token first, which ends its grant, then the access token), then a new
   * vault generation, so no copy of the old records opens again. A failed revocation is logged and
   * the sign-out goes on.
   */
  async signOut(user: string): Promise<void> {
    const { vault, timeoutMs, logger } = this.settings;
    for (const key of this.keys()) {
      const tokens = await vault.get(user, key);
      const revocationUrl = tokens && (await this.endpointsOf(key).catch(() => undefined))?.revocationUrl;
      if (!tokens || !revocationUrl) continue;
      const client = this.schemes.get(key)!.client;
      try {
        if (tokens.refresh) await revokeToken(revocationUrl, tokens.refresh, "refresh_token", client, timeoutMs);
        await revokeToken(revocationUrl, tokens.access, "access_token", client, timeoutMs);
      } catch (error) {
        logger.warn(`sign-in: revoking the tokens of scheme ${key} at sign-out failed`, {
          reason: error instanceof TokenError ? error.code : "error",
        });
      }
    }
    await vault.signOut(user, this.keys());
  }

  /** The scheme's authorization and token endpoints (spec, or OpenID Connect discovery, cached). */
  endpointsOf(key: string): Promise<AuthorizationEndpoints> {
    let found = this.endpoints.get(key);
    if (!found) {
      const { definition } = this.schemes.get(key)!;
      found = definition.authorizationCode
        ? Promise.resolve(definition.authorizationCode)
        : discoverEndpoints(definition.openIdConnectUrl ?? "", this.settings.timeoutMs);
      // A failed discovery is tried again by the next call.
      found.catch(() => this.endpoints.delete(key));
      this.endpoints.set(key, found);
    }
    return found;
  }

  /**
   * Asks the user to sign in to `key` for `scopes` (with those they already have): undefined once
   * they did (the call goes on), else the answer to give. May throw -32042.
   */
  private async askSignIn(
    call: UserSignInCall,
    user: string,
    key: string,
    scopes: string[],
  ): Promise<CallToolResult | InputRequiredResult | undefined> {
    const { flows, vault, waitMs, serverName } = this.settings;
    const { tools, tool } = call;
    // A modern retry: the user was asked in the previous round; wait for them to finish.
    const state = tools.state as { signIn?: string } | undefined;
    const answer = tools.inputResponses[INPUT_KEY];
    if (call.request.era.modern && typeof state?.signIn === "string" && answer) {
      if (answer.action !== "accept") return declined(tool.name);
      const done = async () => (await this.usable(user, key, scopes)) !== undefined;
      if (await flows.wait(state.signIn, waitMs, call.request.cancellation.signal, done)) return undefined;
    }
    const had = (await vault.get(user, key))?.scopes ?? [];
    const flow = await flows.create(user, key, union(had, scopes));
    const url = await this.settings.startUrl(flow.startId);
    const host = new URL((await this.endpointsOf(key).catch(() => undefined))?.authorizationUrl ?? url).host;
    const message = `Sign in at ${host} so that ${serverName} can call ${tool.name} as you.`;
    const elicitation = { mode: "url", elicitationId: flow.startId, url, message };
    const capabilities = tools.clientCapabilities.elicitation;
    const canUrl = isRecord(capabilities) && isRecord(capabilities.url);
    const retryText = textResult(
      `${tool.name} acts as you upstream and you are not signed in${had.length > 0 ? " with the scopes it needs" : ""}. Open ${url} to sign in (within ${FLOW_TTL_MS / 60_000} minutes), then retry.`,
      true,
    );
    if (!canUrl || call.fromCode) return retryText;
    if (call.request.era.modern)
      return tools.inputRequired(
        { [INPUT_KEY]: { method: "elicitation/create", params: elicitation } },
        { signIn: flow.state },
      );
    let reply: Record<string, unknown>;
    try {
      reply = await tools.clientRequest("elicitation/create", elicitation);
    } catch (error) {
      if (error instanceof RpcError && !call.request.cancellation.cancelled) throw urlElicitationRequired(elicitation);
      throw error;
    }
    if (reply.action !== "accept") return declined(tool.name);
    if (
      await flows.wait(
        flow.state,
        waitMs,
        call.request.cancellation.signal,
        async () => (await this.usable(user, key, scopes)) !== undefined,
      )
    )
      return undefined;
    if (call.request.cancellation.cancelled) return retryText;
    throw urlElicitationRequired(elicitation);
  }
}

/** The -32042 error naming the sign-in URL. */
function urlElicitationRequired(elicitation: Record<string, unknown>): RpcError {
  return new RpcError(URL_ELICITATION_REQUIRED, "This request needs you to sign in first.", {
    elicitations: [elicitation],
  });
}

function declined(name: string): CallToolResult {
  return textResult(`Not done: signing in for ${name} was declined.`, true);
}

/** The vault's record of a token answer; `scopes` are those asked for when the answer does not say. */
export function tokensOf(
  answer: { accessToken: string; refreshToken?: string; expiresIn?: number; scopes?: string[] },
  scopes: string[],
  previousRefresh?: string,
): UserTokens {
  const refresh = answer.refreshToken ?? previousRefresh;
  return {
    access: answer.accessToken,
    ...(refresh ? { refresh } : {}),
    ...(answer.expiresIn ? { expiresAt: Date.now() + answer.expiresIn * 1000 } : {}),
    scopes: answer.scopes ?? scopes,
  };
}

function union(a: readonly string[], b: readonly string[]): string[] {
  return [...new Set([...a, ...b])];
}
