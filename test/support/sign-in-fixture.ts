/**
 * Shared fixture of the per-user sign-in tests (no tests here): a real OpenID provider
 * (oidc-provider) on 127.0.0.1 as the upstream's authorization server, an upstream API that checks
 * its access tokens by introspection and says whose they are, and the server description of an
 * API whose operation needs the user's own token.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { ServerInfo, ToolDefinition } from "../../runtime/src/api/types.js";
import type { Client } from "oidc-provider";

/** The app the MCP server is registered as upstream. */
export const CLIENT = { id: "mcp-server-app", secret: "app-secret-0123456789-abcdefghijkl" };
/** The MCP server's app at the MCP authorization server, for the browser-user check (same provider in the tests). */
export const CHECK_CLIENT = { id: "mcp-sign-in-check", secret: "check-secret-0123456789-abcdefghijkl" };
/** The upstream API's own credentials for introspection. */
const API_CLIENT = { id: "upstream-api", secret: "api-secret-0123456789-abcdefghijkl" };

/** A free port on 127.0.0.1 (for an address that must be registered before its server starts). */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** A running OpenID provider. */
export interface Provider {
  issuer: string;
  /** Makes access tokens issued from now on live `seconds`. */
  setAccessTokenTtl(seconds: number): void;
  /** Revokes every grant of the account `sub` (access and refresh tokens). */
  revokeAccount(sub: string): Promise<void>;
  /** Token endpoint requests received, by grant type. */
  grants: string[];
  close(): Promise<void>;
}

/**
 * Starts oidc-provider on 127.0.0.1 with the MCP server's app registered for `redirectUris`, and
 * its browser-check app (CHECK_CLIENT) for `checkRedirectUris` when given.
 */
export async function startProvider(redirectUris: string[], checkRedirectUris: string[] = []): Promise<Provider> {
  const { default: OidcProvider } = await import("oidc-provider");
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let accessTtl = 3600;
  const provider = new OidcProvider(issuer, {
    clients: [
      {
        client_id: CLIENT.id,
        client_secret: CLIENT.secret,
        redirect_uris: redirectUris,
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
      ...(checkRedirectUris.length > 0
        ? [
            {
              client_id: CHECK_CLIENT.id,
              client_secret: CHECK_CLIENT.secret,
              redirect_uris: checkRedirectUris,
              grant_types: ["authorization_code"],
              response_types: ["code"],
              token_endpoint_auth_method: "client_secret_basic",
            },
          ]
        : []),
      {
        client_id: API_CLIENT.id,
        client_secret: API_CLIENT.secret,
        redirect_uris: [],
        grant_types: [],
        response_types: [],
      },
    ],
    scopes: ["openid", "offline_access", "pets:read", "pets:write"],
    features: {
      introspection: { enabled: true },
      revocation: { enabled: true },
      devInteractions: { enabled: true },
    },
    pkce: { required: () => true },
    issueRefreshToken: async (_ctx: unknown, client: Client) => client.grantTypeAllowed("refresh_token"),
    ttl: { AccessToken: () => accessTtl, RefreshToken: 86_400, Grant: 86_400, Session: 86_400, Interaction: 600 },
    findAccount: async (_ctx: unknown, sub: string) => ({ accountId: sub, claims: async () => ({ sub }) }),
    cookies: { keys: ["cookie-key-0123456789-abcdefghijklmnop"] },
    adapter: MemoryAdapter as never,
  });
  const grants: string[] = [];
  provider.on("grant.success", (ctx) => grants.push(String(ctx.oidc.params?.grant_type ?? "")));
  const handle = provider.callback();
  server.on("request", handle);
  return {
    issuer,
    setAccessTokenTtl: (seconds) => (accessTtl = seconds),
    revokeAccount: async (sub) => {
      // As a user revoking the app at the provider: every grant of the account ends, with its tokens.
      const grantIds = [...stored.values()].filter((p) => p.accountId === sub && p.grantId).map((p) => p.grantId!);
      for (const grantId of new Set(grantIds)) await new MemoryAdapter("Grant").revokeByGrantId(grantId);
    },
    grants,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Everything the provider stores (tokens, grants, sessions), by model and id. */
const stored = new Map<string, { accountId?: string; grantId?: string; uid?: string; consumed?: number }>();

/** oidc-provider's storage, in memory, where the tests can find an account's grants. */
class MemoryAdapter {
  constructor(private readonly model: string) {}
  private key(id: string): string {
    return `${this.model}:${id}`;
  }
  async upsert(id: string, payload: Record<string, unknown>): Promise<void> {
    stored.set(this.key(id), payload as never);
  }
  async find(id: string): Promise<unknown> {
    return stored.get(this.key(id));
  }
  async findByUid(uid: string): Promise<unknown> {
    return [...stored.entries()].find(([key, p]) => key.startsWith(`${this.model}:`) && p.uid === uid)?.[1];
  }
  async findByUserCode(): Promise<undefined> {
    return undefined;
  }
  async consume(id: string): Promise<void> {
    const payload = stored.get(this.key(id));
    if (payload) payload.consumed = Math.floor(Date.now() / 1000);
  }
  async destroy(id: string): Promise<void> {
    stored.delete(this.key(id));
  }
  async revokeByGrantId(grantId: string): Promise<void> {
    for (const [key, payload] of [...stored.entries()]) if (payload.grantId === grantId) stored.delete(key);
  }
}

/** A running upstream API. */
export interface UpstreamApi {
  baseUrl: string;
  /** The access tokens each account (the provider's `sub`) was seen with. */
  tokensBySub: Map<string, Set<string>>;
  /** Requests answered 401. */
  refused: number;
  close(): Promise<void>;
}

/** An upstream API: `GET /me` answers `{ sub, scope }` for a token the provider says is active, else 401. */
export async function startUpstreamApi(provider: Provider): Promise<UpstreamApi> {
  const tokensBySub = new Map<string, Set<string>>();
  const api: UpstreamApi = { baseUrl: "", tokensBySub, refused: 0, close: async () => {} };
  const server = createServer((req, res) => {
    void (async () => {
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
      const basic = Buffer.from(`${API_CLIENT.id}:${API_CLIENT.secret}`).toString("base64");
      const answer = token
        ? ((await fetch(`${provider.issuer}/token/introspection`, {
            method: "POST",
            headers: { authorization: `Basic ${basic}`, "content-type": "application/x-www-form-urlencoded" },
            body: new URLSearchParams({ token }).toString(),
          }).then((r) => r.json())) as { active?: boolean; sub?: string; scope?: string })
        : { active: false };
      if (!answer.active || !answer.sub) {
        api.refused++;
        res.writeHead(401, { "www-authenticate": "Bearer" }).end();
        return;
      }
      const seen = tokensBySub.get(answer.sub) ?? new Set<string>();
      seen.add(token!);
      tokensBySub.set(answer.sub, seen);
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ sub: answer.sub, scope: answer.scope }));
    })().catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  api.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  api.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return api;
}

/** The server description: scheme `upstream` (authorization code at `issuer`) and the tool `getMe` needing `pets:read`. */
export function signInApi(issuer: string): { info: ServerInfo; tools: ToolDefinition[] } {
  const info: ServerInfo = {
    name: "me-mcp",
    version: "1.0.0",
    title: "Me",
    description: "Who am I upstream.",
    securitySchemes: [
      {
        key: "upstream",
        type: "oauth2",
        authorizationCode: { authorizationUrl: `${issuer}/auth`, tokenUrl: `${issuer}/token` },
        env: {
          token: "UPSTREAM",
          clientId: "UPSTREAM_CLIENT_ID",
          clientSecret: "UPSTREAM_CLIENT_SECRET",
          scopes: "UPSTREAM_SCOPES",
        },
      },
    ],
  };
  const tools: ToolDefinition[] = [
    {
      name: "getMe",
      description: "Who the upstream says I am",
      inputSchema: { type: "object", properties: {}, additionalProperties: false },
      annotations: { readOnlyHint: true },
      http: {
        method: "get",
        path: "/me",
        parameters: [],
        response: { accept: ["application/json"] },
        security: [{ upstream: ["pets:read"] }],
      },
    },
  ];
  return { info, tools };
}
