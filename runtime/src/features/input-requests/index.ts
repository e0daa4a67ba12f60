/**
 * Feature `input-requests`: the helpers a handler gets for one request (`ctx` of custom code, and
 * what `confirm` and `user-oauth` ask the user with): multi round-trip requests with a sealed
 * `requestState`, progress, logs and client capabilities. Included with custom, confirm and
 * user-oauth; a server without them has no handler that asks.
 */
import type { Feature } from "../../cli/features.js";
import { requestHelpers } from "./request-helpers.js";

export const inputRequests: Feature = {
  name: "input-requests",
  plugs: () => ({ requestTools: requestHelpers }),
};
