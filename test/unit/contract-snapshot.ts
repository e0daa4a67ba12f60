/**
 * `.mcp-gen/tools.json` version 2: the contracts with their `$defs` shared (each body once), read
 * back as the contracts themselves; version 1 (every body in every tool) still read.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import {
  parseSnapshot,
  type StoredSnapshot,
  type ToolContract,
} from "../../generator/pipeline/plan/changes/contracts.js";
import { shareDefinitions } from "../../generator/pipeline/emit/data/data-files.js";

const User = { type: "object", properties: { id: { type: "string" } } };
const contract = (name: string, withDefs: boolean): ToolContract => ({
  name,
  operation: `GET /${name}`,
  description: name,
  inputSchema: {
    type: "object",
    properties: { user: { $ref: "#/$defs/User" } },
    ...(withDefs ? { $defs: { User } } : {}),
  } as ToolContract["inputSchema"],
});
const tools = [contract("a", true), contract("b", true), contract("c", false)];

test("a version 2 snapshot stores a shared body once and reads back as the contracts", () => {
  const { items, definitions } = shareDefinitions(tools);
  const stored: StoredSnapshot = { snapshotVersion: 2, tools: items, definitions };
  const text = JSON.stringify(stored);
  assert.is(text.split('"id"').length - 1, 1, "the body once");
  assert.equal(parseSnapshot(JSON.parse(text))?.tools, tools);
});

test("version 1 is read as it is; damaged or unknown snapshots are none", () => {
  assert.equal(parseSnapshot({ snapshotVersion: 1, tools })?.tools, tools);
  const { items } = shareDefinitions(tools);
  assert.is(parseSnapshot({ snapshotVersion: 2, tools: items, definitions: [] }), undefined, "a missing body");
  assert.is(parseSnapshot({ snapshotVersion: 3, tools, definitions: [] }), undefined);
  assert.is(parseSnapshot({ snapshotVersion: 2, tools }), undefined, "no definitions");
});

test.run();
