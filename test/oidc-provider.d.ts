/** oidc-provider ships no types; the sign-in tests use this much of it. */
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";
  interface Client {
    grantTypeAllowed(type: string): boolean;
  }
  interface Context {
    oidc: { params?: Record<string, unknown> };
  }
  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    on(event: string, listener: (ctx: Context) => void): void;
  }
  export type { Client, Context };
}
