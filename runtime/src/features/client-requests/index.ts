/**
 * Feature `client-requests`: legacy-era server→client requests (`elicitation/create`,
 * `sampling/createMessage`, `roots/list` through `ctx.clientRequest`), which `confirm` and
 * `user-oauth` ask legacy clients with. Included when those features are, or when the project's
 * custom code (src/custom/) calls `clientRequest`.
 */
import type { Feature } from "../../cli/features.js";
import { legacyClientRequests } from "./client-requests.js";

export const clientRequests: Feature = {
  name: "client-requests",
  plugs: () => ({ clientRequests: legacyClientRequests }),
};
