/**
 * Who "the user" is, to whom upstream tokens belong: the OAuth resource-server mode's issuer and
 * subject; else a header a trusted gateway sets (`--trust-user-header`, chosen explicitly by the
 * operator); on stdio the one local user. Never a guess, never the MCP session id. Users are kept
 * as digests, so no store key or log line shows an identity.
 */
import { createHash } from "node:crypto";

/** Where the user's identity comes from. */
export type UserSource = { kind: "oauth"; issuer: string } | { kind: "header"; header: string } | { kind: "local" };

/** What a request says about its sender. */
export interface RequestIdentity {
  subject?: string | undefined;
  headers?: Record<string, string | string[] | undefined> | undefined;
}

/** The user of a request as a digest, or undefined when the request does not say. */
export function userOf(source: UserSource, request: RequestIdentity): string | undefined {
  switch (source.kind) {
    case "oauth":
      return request.subject ? digest(`oauth\n${source.issuer}\n${request.subject}`) : undefined;
    case "header": {
      const raw = request.headers?.[source.header.toLowerCase()];
      const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
      return value ? digest(`header\n${value}`) : undefined;
    }
    case "local":
      return "local";
  }
}

/** SHA-256, base64url. */
export function digest(text: string): string {
  return createHash("sha256").update(text).digest("base64url");
}
