/**
 * Feature `confirm`: `--confirm-destructive` asks the user before a destructive tool (annotation
 * `destructiveHint`, e.g. every DELETE) calls the upstream API: modern clients get an
 * `input_required` elicitation whose sealed state is bound to the exact arguments, legacy clients
 * that declared elicitation an `elicitation/create` request; other clients are refused. Tools the
 * spec marks `x-mcp-confirm` ask always.
 */
import type { Feature } from "../../cli/features.js";
import { confirmationGate } from "./confirm-gate.js";

export const confirm: Feature = {
  name: "confirm",
  flags: { "confirm-destructive": { type: "boolean" } },
  usage: `  --confirm-destructive  ask the user to confirm destructive tools (DELETE …) first
                     (env MCP_STATE_SECRET: HMAC key for the confirmation state; share it
                     across instances behind a load balancer)
`,
  // Always plugged: tools the spec marks x-mcp-confirm ask whatever the flags (this feature is
  // generated in for them); the flag adds every destructive tool.
  plugs: ({ flags }) => ({ gate: confirmationGate(flags["confirm-destructive"] === true) }),
};
