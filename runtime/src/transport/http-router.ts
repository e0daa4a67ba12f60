/**
 * The HTTP transport's router: a request to a document of the guard (`oauth`), to the MCP
 * endpoint or to an endpoint a feature serves beside it (`legacy-sse`, `user-oauth`), after the
 * checks every path shares: the origin, the trusted user header, the guard's bearer token.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { McpServer } from "../server/server.js";
import type { McpRoute } from "./http-call.js";
import { isAllowedOrigin } from "./http-hosts.js";
import { isRefusal, refuse, type HttpEndpoints, type HttpGuard, type Principal } from "./http-plugs.js";
import { reject, sendText } from "./http-util.js";

/** Serves a request the router sent to the MCP endpoint. */
type RoutedMcp = (req: IncomingMessage, res: ServerResponse, route: McpRoute) => Promise<void>;

/** What the router routes to and checks with. */
export interface RouterOptions {
  /** The MCP endpoint's path (`/mcp`). */
  endpoint: string;
  /** Endpoints beside the MCP one: a path goes to the first that owns it. */
  endpoints: readonly HttpEndpoints[];
  /** Allowed `Origin` values besides loopback ones. */
  allowedOrigins: ReadonlySet<string>;
  /** A header a trusted gateway names the user by: requests without it get 401. */
  userHeader: string | undefined;
  oauth: HttpGuard | undefined;
}

/** The router of one server: a request goes through its steps to the MCP handler or another endpoint. */
export function httpRouter(
  server: McpServer,
  options: RouterOptions,
  handleMcp: RoutedMcp,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> | void {
  const { endpoint, endpoints, allowedOrigins, oauth } = options;
  const userHeader = options.userHeader?.toLowerCase();
  // Not async: a request answered here returns nothing, the MCP handler's own promise is the request's,
  // and only a guard's check waits (an async frame around every call cost an allocation and a resumption).
  return (req, res) => {
    const url = req.url ?? "/";
    const query = url.indexOf("?");
    const pathname = query < 0 ? url : url.slice(0, query);
    if (oauth?.serve(req, res, pathname)) return;
    const origin = req.headers.origin;
    if (origin !== undefined && !isAllowedOrigin(origin, allowedOrigins))
      return reject(res, 403, "Forbidden: origin not allowed");
    const other = endpoints.find((endpoints) => endpoints.owns(pathname));
    if (pathname !== endpoint && !other) return sendText(res, 404, "Not Found");
    const isPublic = other?.isPublic?.(pathname) ?? false;
    if (userHeader && !isPublic && !String(req.headers[userHeader] ?? "").trim())
      return reject(res, 401, `Unauthorized: no ${options.userHeader} header`);
    const search = query < 0 ? "" : url.slice(query);
    const serve = (principal: Principal | undefined): Promise<void> =>
      other
        ? other.handle(req, res, pathname, principal && access(server, oauth!, principal), refuse)
        : handleMcp(req, res, { search, principal });
    if (!oauth || isPublic) return serve(undefined);
    return authenticate(req, res, oauth).then((principal) => (principal === null ? undefined : serve(principal)));
  };
}

/** The caller of a request by its bearer token, or null when the guard refused it (answered). */
async function authenticate(req: IncomingMessage, res: ServerResponse, oauth: HttpGuard): Promise<Principal | null> {
  const outcome = await oauth.authenticate(req.headers.authorization);
  if (!isRefusal(outcome)) return outcome;
  refuse(res, outcome);
  return null;
}

/** The other endpoints (the deprecated HTTP+SSE ones) get the same bearer and per-tool scope checks. */
function access(server: McpServer, oauth: HttpGuard, principal: Principal) {
  return { principal, check: (payload: unknown) => oauth.check(server, payload, principal.scopes) };
}
