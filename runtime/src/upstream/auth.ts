/**
 * Upstream credentials as the core sees them (feature `auth`, included when the API declares
 * security schemes): which of an operation's security alternatives a call can satisfy, and what
 * that adds to the request. Without the feature no credential is ever sent.
 */
import type { SecurityRequirement, SecuritySchemeDefinition } from "../api/types.js";

/** What a request needs besides its own headers to be authenticated. */
export interface AppliedCredentials {
  headers: Record<string, string>;
  /** `name=value` pairs to add to the query string (already encoded). */
  query: string[];
  cookies: string[];
  /** Client certificate and key (PEM) for mutual TLS. */
  tls?: { certificate: string; key: string };
  /** OAuth scheme keys used, so a 401 can refresh their tokens once. */
  oauthKeys: string[];
}

/** What a redirect to another origin strips from a request that carries credentials. */
export interface RequestSecrets {
  origin: string;
  headers: ReadonlySet<string>;
  query: ReadonlySet<string>;
  cookies: boolean;
  tls: boolean;
}

/** The outcome of choosing credentials for one call. */
export type CredentialChoice = { ok: true; credentials: AppliedCredentials } | { ok: false; message: string };

/** The credentials of one server. */
export interface Credentials {
  /**
   * Picks the first security alternative whose schemes all have credentials and applies it;
   * `fromRequest` (see {@link Credentials.fromRequest}) wins over the environment. `refreshOAuth`
   * asks for new OAuth tokens (after a 401).
   */
  choose(
    requirements: SecurityRequirement[] | undefined,
    refreshOAuth?: boolean,
    fromRequest?: Record<string, string>,
  ): Promise<CredentialChoice>;
  /** Adds `applied` to `headers` (in place) and `url`; returns the URL and what a redirect elsewhere must strip. */
  authorize(
    url: string,
    headers: Record<string, string>,
    applied: AppliedCredentials,
  ): { url: string; secrets: RequestSecrets };
  /** Drops the cached tokens of these OAuth schemes (the upstream refused them). */
  invalidate(keys: string[]): void;
  /** The credentials an incoming HTTP request carries for the schemes, by scheme key (passthrough). */
  fromRequest(headers: Record<string, string | string[] | undefined> | undefined): Record<string, string>;
}

/** Makes the credentials of a server from its schemes and environment; the auth feature provides it. */
export type MakeCredentials = (
  schemes: readonly SecuritySchemeDefinition[],
  env: NodeJS.ProcessEnv,
  timeoutMs: number | undefined,
) => Credentials;
