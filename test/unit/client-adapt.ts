import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { runtimeProfiles } from "../../generator/shared/profiles.js";
import { nameMap } from "../../runtime/src/features/clients/client-names.js";
import { matchProfile, parseClientProfiles, profileById } from "../../runtime/src/features/clients/client-profiles.js";
import { modernClientInfo } from "../../runtime/src/features/clients/client-views.js";
import {
  decodeArguments,
  shapeInputSchema,
  type SchemaRules,
} from "../../runtime/src/features/clients/client-schema.js";
import { loadTools } from "../../runtime/src/data/tool-data.js";
import type { ObjectJsonSchema } from "../../runtime/src/api/types.js";
import { SchemaValidator } from "../../runtime/src/api/validation.js";
import { geminiViolations } from "../clients/gemini-shape.js";
import { openAiStrictViolations } from "../clients/openai-strict.js";
import { repoRoot } from "../support/e2e.js";

const profiles = runtimeProfiles();
const rules = (id: string): SchemaRules => profiles.find((profile) => profile.id === id)!.schema!;

test("names: those that fit are kept; others are rewritten within the rules, stably and both ways", () => {
  const names = ["listPets", "pets.get", "a".repeat(70), "9lives", "pets_get"];
  const map = nameMap(names, { pattern: "^[A-Za-z0-9_-]{1,64}$", maxLength: 40 });
  assert.is(map.served("listPets"), "listPets");
  const served = names.map((name) => map.served(name));
  for (const name of served) assert.ok(/^[A-Za-z0-9_-]{1,40}$/.test(name), name);
  assert.is(new Set(served).size, names.length, "no two tools share a served name");
  assert.is(map.served("pets_get"), "pets_get", "a name that fits keeps it");
  assert.match(map.served("pets.get"), /^pets_get_[a-z0-9]{6}$/, "so the rewrite of pets.get takes a hash");
  for (const name of names) assert.is(map.original(map.served(name)), name);
  assert.is(map.original("unknown"), undefined);
  assert.is(map.renamed, 2);
  assert.equal(
    nameMap(names, { pattern: "^[A-Za-z0-9_-]{1,64}$", maxLength: 40 }).served("a".repeat(70)),
    map.served("a".repeat(70)),
    "stable",
  );
  // Gemini's names must start with a letter or _.
  assert.match(nameMap(["9lives"], { pattern: "^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$" }).served("9lives"), /^t_9lives$/);
});

test("profiles: matched by clientInfo name (case-insensitive), by id for --client, read from their data file", () => {
  assert.is(matchProfile(profiles, { name: "Visual Studio Code - Insiders" })?.id, "vscode");
  assert.is(matchProfile(profiles, { name: "claude-code" })?.id, "claude-code");
  assert.is(matchProfile(profiles, { name: "gemini-cli-mcp-client-weather" })?.id, "gemini");
  assert.is(matchProfile(profiles, { name: "inspector" }), undefined);
  assert.is(matchProfile(profiles, undefined), undefined);
  assert.is(profileById(profiles, "cursor").maxTools, 40);
  assert.throws(
    () => profileById(profiles, "nope"),
    /--client must be one of claude-code, claude-desktop, cursor, gemini, openai, vscode/,
  );
  assert.equal(parseClientProfiles(JSON.stringify(profiles)), profiles);
  assert.throws(() => parseClientProfiles("{}"), /array of profiles/);
  assert.equal(modernClientInfo({ _meta: { "io.modelcontextprotocol/clientInfo": { name: "x", version: "1" } } }), {
    name: "x",
    version: "1",
  });
  assert.is(modernClientInfo({ _meta: {} }), undefined);
});

test("input schemas of every golden example, shaped for OpenAI strict mode and Gemini, pass checkers of those rules", () => {
  const examples = readdirSync(join(repoRoot, "generated"));
  let count = 0;
  for (const example of examples) {
    const data = join(repoRoot, "generated", example, "data");
    let text: string;
    try {
      text = readFileSync(join(data, "tools.json"), "utf8");
    } catch {
      continue;
    }
    let definitions: string | undefined;
    try {
      definitions = readFileSync(join(data, "definitions.json"), "utf8");
    } catch {
      definitions = undefined;
    }
    const tools = loadTools(JSON.parse(text), definitions === undefined ? [] : JSON.parse(definitions));
    count += tools.length;
    const openai = tools.map((tool) => ({
      name: tool.name.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64),
      inputSchema: shapeInputSchema(tool.inputSchema, rules("openai")).schema,
    }));
    const gemini = tools.map((tool) => ({
      name: tool.name.replace(/[^A-Za-z0-9_.:-]/g, "_").slice(0, 64),
      inputSchema: shapeInputSchema(tool.inputSchema, rules("gemini")).schema,
    }));
    assert.equal(openAiStrictViolations(openai.slice(0, 128)), [], example);
    assert.equal(geminiViolations(gemini.slice(0, 512)), [], example);
  }
  assert.ok(count > 20, `${count} tools checked`);
});

const orderSchema: ObjectJsonSchema = {
  type: "object",
  properties: {
    id: { type: "integer", enum: [1, 2, 3] },
    tags: { type: ["string", "integer", "null"] },
    filter: {
      oneOf: [
        { type: "object", required: ["q"], properties: { q: { type: "string" }, extra: { type: "object" } } },
        { type: "string" },
      ],
    },
    when: { type: "string", format: "uri", default: "x" },
    deep: { $ref: "#/$defs/Node" },
  },
  required: ["id"],
  $defs: { Node: { type: "object", properties: { next: { $ref: "#/$defs/Node" }, value: { type: "string" } } } },
};

test("strict and Gemini forms: the checkers accept them, and a value in the client's form decodes to one the full schema takes", () => {
  const validator = new SchemaValidator();
  for (const id of ["openai", "gemini"]) {
    const shaped = shapeInputSchema(orderSchema, rules(id));
    const violations =
      id === "openai"
        ? openAiStrictViolations([{ name: "t", inputSchema: shaped.schema }])
        : geminiViolations([{ name: "t", inputSchema: shaped.schema }]);
    assert.equal(violations, [], id);
    const sent: Record<string, unknown> = {
      id: 2,
      filter: { q: "a", extra: '{"k":1}' },
      deep: { value: "v", next: '{"value":"w"}' },
    };
    if (id === "openai") Object.assign(sent, { tags: null, when: null }, { filter: { q: "a", extra: '{"k":1}' } });
    const decoded = decodeArguments(sent, shaped.decoder) as Record<string, unknown>;
    assert.equal(
      decoded,
      { id: 2, filter: { q: "a", extra: { k: 1 } }, deep: { value: "v", next: { value: "w" } } },
      id,
    );
    assert.ok(validator.validate(orderSchema, decoded, id).ok);
    // The rewrite told what it took away.
    assert.match(JSON.stringify(shaped.schema), "Format: uri.");
  }
  // Gemini takes no number enums: moved into the description.
  const gemini = shapeInputSchema(orderSchema, rules("gemini")).schema;
  assert.is((gemini.properties!.id as { enum?: unknown }).enum, undefined);
  assert.match((gemini.properties!.id as { description: string }).description, "One of: 1, 2, 3.");
  // Text that is not JSON stays as it is, for validation to refuse.
  assert.equal(decodeArguments({ deep: { next: "{oops" } }, shapeInputSchema(orderSchema, rules("gemini")).decoder), {
    deep: { next: "{oops" },
  });
});

test.run();
