/**
 * The pure parts of the workspace commands: the changes of a build in words, the HTML report's
 * escaping and content, the publish order, the TAP counts of a server's tests, the check's score.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { scoreOf } from "../../generator/commands/check/run-check.js";
import { diffTools } from "../../generator/pipeline/plan/changes/diff-tools.js";
import type { ToolContract } from "../../generator/pipeline/plan/changes/contracts.js";
import { publishOrder, PublishOrderError } from "../../generator/commands/workspace/publish.js";
import {
  describeChanges,
  type FleetReport,
  type ServerReport,
} from "../../generator/commands/workspace/report-data.js";
import { renderReportHtml } from "../../generator/commands/workspace/report-html.js";
import { parseTap } from "../../generator/commands/workspace/test-fleet.js";

const contract = (name: string, inputSchema: Record<string, unknown>): ToolContract =>
  ({ name, operation: `GET /${name}`, inputSchema }) as ToolContract;

test("describeChanges: removed tools and narrowed inputs are breaking changes, in words", () => {
  const before = [
    contract("getPet", { type: "object", properties: { id: { type: "string" } } }),
    contract("listPets", { type: "object", properties: {} }),
    contract("oldTool", { type: "object" }),
  ];
  const after = [
    contract("getPet", { type: "object", properties: { id: { type: "integer" } } }),
    contract("listPets", { type: "object", properties: { limit: { type: "integer" } } }),
    contract("newTool", { type: "object" }),
  ];
  const changes = describeChanges(diffTools(before, after));
  assert.is(changes.breaking, true);
  assert.is(changes.bump, "major");
  assert.equal(changes.added, ["newTool"]);
  assert.equal(changes.removed, ["oldTool"]);
  assert.is(changes.breakingChanges[0], "oldTool: tool removed");
  assert.ok(
    changes.breakingChanges.some((line) => line.startsWith("getPet input id:")),
    changes.breakingChanges.join("\n"),
  );
  assert.ok(changes.compatibleChanges >= 2, "the new tool and the new optional argument");
});

const server = (over: Partial<ServerReport>): ServerReport => ({
  name: "@acme/a-mcp",
  out: "servers/a",
  spec: "specs/a.yaml",
  status: "passing",
  warnings: { count: 0, items: [] },
  lint: [],
  ...over,
});

function report(servers: ServerReport[]): FleetReport {
  return {
    workspace: "mcp-gen.workspace.yaml",
    generator: "mcp-gen 0.0.0",
    totals: {
      servers: servers.length,
      tools: 3,
      toolsListTokens: 1234,
      tests: { passed: 9, failed: 1, skipped: 0 },
      compliance: { checked: 2, perfect: 1, lowest: 80, mean: 90 },
      warnings: 1,
      changed: 1,
      breaking: 1,
      failing: 1,
    },
    servers,
  };
}

test("report.html: self-contained, every text escaped, failing and breaking servers shown with their reasons", () => {
  const hostile = "<script>alert(1)</script>";
  const html = renderReportHtml(
    report([
      server({
        name: "@acme/a-mcp",
        version: "2.0.0",
        previousVersion: "1.4.0",
        generated: "updated",
        toolsList: { tools: 3, bytes: 4000, tokens: 1000 },
        tests: { passed: 5, failed: 0, skipped: 0, failures: [] },
        compliance: [{ transport: "stdio", score: 100, failed: [] }],
        changes: {
          bump: "major",
          breaking: true,
          added: [],
          removed: ["oldTool"],
          renamed: [],
          breakingChanges: [`oldTool: tool removed ${hostile}`],
          compatibleChanges: 0,
        },
      }),
      server({
        name: "@acme/b-mcp",
        status: "failing",
        toolsList: { tools: 2, bytes: 936, tokens: 234 },
        tests: { passed: 4, failed: 1, skipped: 0, failures: ["getThing: the request matches the API"] },
        compliance: [
          { transport: "stdio", score: 80, failed: [{ id: "tools-call-unknown", message: `got ${hostile}` }] },
        ],
        warnings: { count: 1, items: [{ code: "MG101", message: `bad ${hostile}` }] },
      }),
    ]),
  );
  assert.not.match(html, /<script/i, "no script, and no spec text opens markup");
  assert.match(html, /&#60;script&#62;alert\(1\)&#60;\/script&#62;/);
  assert.not.match(html, /(src|href)=["']?https?:/i, "nothing is fetched");
  assert.match(html, /<tr data-server="@acme\/a-mcp" data-status="passing">/);
  assert.match(html, /1\.4\.0 →<\/span> 2\.0\.0/);
  assert.match(html, /<span class="badge bad">breaking<\/span>/);
  assert.match(html, /<ul class="breaking"><li>oldTool: tool removed/);
  assert.match(html, /<tr data-server="@acme\/b-mcp" data-status="failing">/);
  assert.match(html, /<code>tools-call-unknown<\/code> got &#60;script/);
  assert.match(html, /getThing: the request matches the API/);
  // The chart: one bar per server, the largest tools/list spans the chart, the other in proportion.
  const widths = [...html.matchAll(/<rect [^>]*width="(\d+)"/g)].map((m) => Number(m[1]));
  assert.equal(widths, [440, Math.round((440 * 234) / 1000)]);
  assert.match(html, /fill="#2da44e"/);
  assert.match(html, /fill="#cf222e"/);
});

test("publish order: dependencies of the workspace first, the others in file order; a cycle is an error", () => {
  const pkg = (name: string, dependsOn: string[] = []) => ({ name, dependsOn });
  const order = publishOrder([pkg("a", ["got"]), pkg("b", ["c"]), pkg("c"), pkg("d", ["b", "a"])]).map((p) => p.name);
  assert.equal(order, ["a", "c", "b", "d"]);
  assert.throws(
    () => publishOrder([pkg("a", ["b"]), pkg("b", ["a"])]),
    (error: unknown) => error instanceof PublishOrderError && /a → b → a/.test((error as Error).message),
  );
});

test("parseTap: node:test's counts and the names of failing tests, in TAP and in the spec reporter", () => {
  const tap = [
    "TAP version 13",
    "ok 1 - lists every tool",
    "not ok 2 - getPet: the request matches the API",
    "  ---",
    "ok 3 - x # SKIP no sample",
    "1..3",
    "# tests 3",
    "# pass 1",
    "# fail 1",
    "# cancelled 0",
    "# skipped 1",
    "# todo 0",
  ].join("\n");
  assert.equal(parseTap(tap), { passed: 1, failed: 1, skipped: 1, failures: ["getPet: the request matches the API"] });
  const spec = [
    "✔ lists every tool (3.1ms)",
    "✖ getPet: the request matches the API (12.5ms)",
    "ℹ tests 2",
    "ℹ pass 1",
    "ℹ fail 1",
    "ℹ skipped 0",
    "ℹ todo 0",
    "✖ failing tests:",
    "✖ getPet: the request matches the API (12.5ms)",
  ].join("\n");
  assert.equal(
    parseTap(spec),
    { passed: 1, failed: 1, skipped: 0, failures: ["getPet: the request matches the API"] },
    "the spec reporter of later Node versions",
  );
});

test("scoreOf: passed points over the points of the checks that apply, floored", () => {
  const r = (weight: number, ok: boolean, skipped = false) => ({
    id: "x",
    ok,
    message: "",
    weight,
    ...(skipped ? { skipped } : {}),
  });
  assert.is(scoreOf([r(10, true), r(5, true), r(5, true, true)]), 100);
  assert.is(scoreOf([r(10, true), r(5, false)]), 66);
  assert.is(scoreOf([r(5, true, true)]), 0, "nothing applicable is no score");
});

test.run();
