/**
 * The runtime's error classes carry a stable string `code` custom code can branch on (as got's and
 * the MCP SDK's errors do), documented in docs/guide/custom-code.md; a new error class without one
 * fails here.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { sources } from "../support/import-graph.js";
import { ApiError } from "../../runtime/src/features/custom/typed-api.js";
import { ArgumentError, serializeHeaderParameter } from "../../runtime/src/upstream/serialize.js";
import { UpstreamCancelledError } from "../../runtime/src/upstream/upstream.js";
import { CredentialError } from "../../runtime/src/features/auth/oauth-client.js";
import { TokenError } from "../../runtime/src/features/user-oauth/token-endpoint.js";
import { InstanceSilentError } from "../../runtime/src/state/cluster-slot.js";
import { StateUnavailableError } from "../../runtime/src/state/state.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const result = { content: [], isError: true };

/** Each class with the code it carries. */
const CODES: Array<[Error & { code: unknown }, string]> = [
  [new ArgumentError("bad"), "ERR_ARGUMENT"],
  [new UpstreamCancelledError("gone"), "ERR_UPSTREAM_CANCELLED"],
  [new CredentialError("no token"), "ERR_CREDENTIAL"],
  [new TokenError("invalid_grant", "refused"), "ERR_TOKEN"],
  [new InstanceSilentError("silent"), "ERR_INSTANCE_SILENT"],
  [new StateUnavailableError("down"), "ERR_STATE_UNAVAILABLE"],
  [new ApiError("getPet", "upstream", "404", 404, undefined, result), "ERR_API_UPSTREAM"],
  [new ApiError("getPet", "unexpected-response", "odd", 200, undefined, result), "ERR_API_UNEXPECTED_RESPONSE"],
  [new ApiError("getPet", "failed", "no answer", undefined, undefined, result), "ERR_API_FAILED"],
];

test("each runtime error carries its stable code, its name and its message", () => {
  for (const [error, code] of CODES) {
    assert.is(error.code, code, error.name);
    assert.ok(error instanceof Error);
    assert.is.not(error.name, "Error");
    assert.ok(error.message.length > 0);
  }
  assert.is(new Set(CODES.map(([, code]) => code)).size, CODES.length, "codes are distinct");
  assert.is(new TokenError("invalid_grant", "refused").reason, "invalid_grant");
});

test("a real failure carries its code: a header value with a line break is an ArgumentError", () => {
  let caught: unknown;
  try {
    serializeHeaderParameter({ name: "X-Note", in: "header", argument: "note" } as never, "a\r\nb");
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof ArgumentError);
  assert.is((caught as ArgumentError).code, "ERR_ARGUMENT");
});

test("every error class in runtime/src declares a code, and the custom-code guide lists each", () => {
  const src = join(root, "runtime", "src");
  const guide = readFileSync(join(root, "docs", "guide", "custom-code.md"), "utf8");
  const classes: string[] = [];
  for (const file of sources(src)) {
    const text = readFileSync(file, "utf8");
    for (const match of text.matchAll(/export class (\w+)(?:<[^>]*>)? extends Error \{([\s\S]*?)\n\}/g)) {
      classes.push(match[1]!);
      assert.match(match[2]!, /readonly code\b/, `${match[1]} declares a code`);
    }
  }
  assert.ok(classes.length >= 8, `only ${classes.length} error classes found`);
  for (const [error, code] of CODES) {
    assert.ok(classes.includes(error.name), `${error.name} is found in runtime/src`);
    assert.ok(guide.includes(code), `the guide lists ${code}`);
  }
});

test.run();
