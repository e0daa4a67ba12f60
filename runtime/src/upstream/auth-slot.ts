/**
 * Upstream credentials as the core sees them (feature `auth`, included when the API declares
 * security schemes): the feature chooses, applies and renews them. Without it no credential is sent.
 */
import type { SecurityRequirement, SecuritySchemeDefinition } from "../api/types.js";
import type { RedirectOptions, UpstreamClient } from "./client-slot.js";

/** A request with credentials in it: its URL, client certificate, and what a redirect elsewhere strips. */
export interface AuthorizedRequest {
  url: string;
  /** Client certificate and key (PEM) for mutual TLS. */
  tls?: { certificate: string; key: string } | undefined;
  /** Called before following a redirect: removes the credentials when it leads to another origin. */
  onRedirect(options: RedirectOptions): void;
}

/** Adds the chosen credentials to a request's `headers` (in place) and `url`. */
export type Authorize = (url: string, headers: Record<string, string>) => AuthorizedRequest;

/** The credentials of one server. */
export interface Credentials {
  /**
   * Sends a call through `send` with the first alternative of `security` whose credentials are all
   * there (`fromRequest`, by scheme key, wins over the environment). A 401 renews them once: OAuth
   * tokens refreshed, else `renew`'s. `query`: the query credentials sent, never put in a cursor.
   */
  send<R extends { statusCode: number }>(
    security: SecurityRequirement[] | undefined,
    fromRequest: Record<string, string> | undefined,
    renew: (() => Promise<Record<string, string> | undefined>) | undefined,
    send: (authorize: Authorize) => Promise<R>,
  ): Promise<{ ok: true; response: R; query: readonly string[] } | { ok: false; message: string }>;
  /** The credentials an incoming HTTP request carries for the schemes, by scheme key (passthrough). */
  fromRequest(headers: Record<string, string | string[] | undefined> | undefined): Record<string, string>;
}

/**
 * Makes the credentials of a server from its schemes and environment; the auth feature provides it.
 * `upstream`: the deadline of a token request, and the HTTP client of upstream calls (default got).
 */
export type MakeCredentials = (
  schemes: readonly SecuritySchemeDefinition[],
  env: NodeJS.ProcessEnv,
  upstream: { timeoutMs?: number | undefined; client?: UpstreamClient | undefined },
) => Credentials;
