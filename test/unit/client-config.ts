// Install snippets (generator/pipeline/emit/publishing/client-config.ts): each client's entry checked against
// that client's documented format (encoded below as JSON Schemas), secrets as placeholders only, and
// --print-config printing them from data/client-config.json with the server's URL quoted for each format.
import { Ajv2020 as Ajv } from "ajv/dist/2020.js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { main } from "../../runtime/src/cli/main.js";
import { within } from "../support/runtime-fixture.js";
import { printConfig } from "../../runtime/src/features/print-config/index.js";
import {
  clientConfig,
  clientConfigData,
  type ConfigClient,
} from "../../generator/pipeline/emit/publishing/client-config.js";
import { configServerName } from "../../runtime/src/features/clients/client-names.js";
import type { ServerInfo } from "../../runtime/src/api/types.js";

const info: ServerInfo = {
  name: "@acme/pet-store-mcp",
  version: "1.0.0",
  env: [
    { name: "PETS_TOKEN", required: true, secret: true, description: "Bearer token" },
    { name: "API_SERVER_REGION", required: true, example: "eu west", description: "Region" },
    { name: "API_BASE_URL", required: false, example: "https://api.example.com" },
    { name: "OTHER_KEY", required: false, secret: true, description: "Key of another scheme" },
  ],
};
const stdio = { kind: "stdio" } as const;
const http = { kind: "http", url: "http://127.0.0.1:3000/mcp" } as const;

const stringMap = { type: "object", additionalProperties: { type: "string" } };
const stdioEntry = {
  type: "object",
  required: ["command", "args"],
  additionalProperties: false,
  properties: { command: { type: "string" }, args: { type: "array", items: { type: "string" } }, env: stringMap },
};
/** The documented shapes: Claude Desktop and Cursor `mcpServers`; VS Code `servers` + `inputs`. */
const formats = {
  "claude-desktop": {
    type: "object",
    required: ["mcpServers"],
    additionalProperties: false,
    properties: { mcpServers: { type: "object", minProperties: 1, additionalProperties: stdioEntry } },
  },
  cursor: {
    type: "object",
    required: ["mcpServers"],
    additionalProperties: false,
    properties: {
      mcpServers: {
        type: "object",
        minProperties: 1,
        additionalProperties: {
          oneOf: [
            stdioEntry,
            {
              type: "object",
              required: ["url"],
              additionalProperties: false,
              properties: { url: { type: "string", format: "uri" } },
            },
          ],
        },
      },
    },
  },
  vscode: {
    type: "object",
    required: ["servers"],
    additionalProperties: false,
    properties: {
      inputs: {
        type: "array",
        items: {
          type: "object",
          required: ["type", "id", "description", "password"],
          additionalProperties: false,
          properties: {
            type: { const: "promptString" },
            id: { type: "string" },
            description: { type: "string" },
            password: { type: "boolean" },
          },
        },
      },
      servers: {
        type: "object",
        minProperties: 1,
        propertyNames: { pattern: "^[a-zA-Z][a-zA-Z0-9_-]*$" },
        additionalProperties: {
          oneOf: [
            {
              ...stdioEntry,
              required: ["type", "command"],
              properties: { ...stdioEntry.properties, type: { const: "stdio" } },
            },
            {
              type: "object",
              required: ["type", "url"],
              additionalProperties: false,
              properties: { type: { const: "http" }, url: { type: "string" } },
            },
          ],
        },
      },
    },
  },
};

function text(client: ConfigClient, transport: typeof stdio | typeof http): string {
  const result = clientConfig(client, info, transport);
  if (!result.ok) throw new Error(result.message);
  return result.text;
}

test("JSON snippets match each client's documented format, over stdio and HTTP", () => {
  const ajv = new Ajv({ allErrors: true, validateFormats: false });
  for (const [client, schema] of Object.entries(formats) as Array<[ConfigClient, object]>) {
    const validate = ajv.compile(schema);
    for (const transport of client === "claude-desktop" ? [stdio] : [stdio, http]) {
      const value = JSON.parse(text(client, transport));
      assert.ok(
        validate(value),
        `${client} ${transport.kind}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(value)}`,
      );
    }
  }
  const desktop = JSON.parse(text("claude-desktop", stdio));
  assert.equal(desktop.mcpServers["pet-store-mcp"], {
    command: "npx",
    args: ["-y", "@acme/pet-store-mcp"],
    env: { PETS_TOKEN: "<PETS_TOKEN>", API_SERVER_REGION: "eu west", OTHER_KEY: "<OTHER_KEY>" },
  });
  assert.equal(JSON.parse(text("cursor", http)), {
    mcpServers: { "pet-store-mcp": { url: "http://127.0.0.1:3000/mcp" } },
  });
});

test("VS Code asks for secrets through password inputs that the env block references", () => {
  const value = JSON.parse(text("vscode", stdio));
  assert.equal(value.inputs, [
    { type: "promptString", id: "PETS_TOKEN", description: "Bearer token", password: true },
    { type: "promptString", id: "OTHER_KEY", description: "Key of another scheme", password: true },
  ]);
  const env = value.servers["pet-store-mcp"].env;
  assert.is(env.PETS_TOKEN, "${input:PETS_TOKEN}");
  assert.is(env.API_SERVER_REGION, "eu west");
  assert.not.ok("API_BASE_URL" in env); // optional settings have defaults; snippets list required ones and credentials
});

test("Claude Code: one shell command, values quoted as words, the npx command after --", () => {
  assert.is(
    text("claude-code", stdio),
    "claude mcp add --env 'PETS_TOKEN=<PETS_TOKEN>' --env 'API_SERVER_REGION=eu west' --env 'OTHER_KEY=<OTHER_KEY>' pet-store-mcp -- npx -y @acme/pet-store-mcp",
  );
  assert.is(text("claude-code", http), "claude mcp add --transport http pet-store-mcp http://127.0.0.1:3000/mcp");
  const hostile = clientConfig(
    "claude-code",
    { name: "x-mcp", version: "1", env: [{ name: "A", required: true, example: "'; rm -rf ~ #" }] },
    stdio,
  );
  assert.ok(hostile.ok && hostile.text.includes(`--env 'A='\\''; rm -rf ~ #'`), JSON.stringify(hostile));
});

test("no secret value can reach a snippet; Claude Desktop has no HTTP entry", () => {
  const leaky: ServerInfo = {
    name: "x-mcp",
    version: "1",
    env: [{ name: "TOKEN", required: true, secret: true, example: "sk-live-123" }],
  };
  for (const client of ["claude-desktop", "claude-code", "cursor", "vscode"] as const) {
    const result = clientConfig(client, leaky, stdio);
    assert.ok(result.ok && !result.text.includes("sk-live-123"), client);
  }
  assert.is(clientConfig("claude-desktop", info, http).ok, false);
  assert.is(configServerName("@scope/1st.api"), "st-api");
});

test("--print-config writes the snippet to stdout and starts nothing; an unknown client is exit 2", async () => {
  const written: string[] = [];
  const original = process.stdout.write.bind(process.stdout);
  const originalErr = process.stderr.write.bind(process.stderr);
  process.stdout.write = ((chunk: string) => (written.push(String(chunk)), true)) as typeof process.stdout.write;
  process.stderr.write = (() => true) as typeof process.stderr.write;
  // An earlier file in the same process may have left an exit code: start from none.
  process.exitCode = undefined;
  try {
    const readData = (file: string) => (file === "client-config.json" ? clientConfigData(info) : undefined);
    const features = [printConfig];
    // A --print-config that started the server instead would never return: fail, do not hang.
    const printed = (argv: string[], options: Parameters<typeof main>[3]) =>
      within(main(info, [], argv, options), 5000, `main(${argv.join(" ")}) returns`);
    const argv = ["--print-config", "cursor", "--http", "--port", "4100"];
    assert.is(await printed(argv, { readData, features }), undefined);
    assert.equal(JSON.parse(written.splice(0).join("")), {
      mcpServers: { "pet-store-mcp": { url: "http://127.0.0.1:4100/mcp" } },
    });
    // The URL is quoted as its format needs: a shell word, a JSON string.
    const odd = ["--http", "--public-url", 'https://mcp.example.com/it\'s "here"'];
    assert.is(await printed(["--print-config", "claude-code", ...odd], { readData, features }), undefined);
    assert.is(
      written.splice(0).join(""),
      `claude mcp add --transport http pet-store-mcp 'https://mcp.example.com/it'\\''s "here"/mcp'\n`,
    );
    assert.is(await printed(["--print-config", "vscode", ...odd], { readData, features }), undefined);
    assert.equal(
      JSON.parse(written.splice(0).join("")).servers["pet-store-mcp"].url,
      `https://mcp.example.com/it's "here"/mcp`,
    );
    // The stdio entry is the README's.
    assert.is(await printed(["--print-config", "claude-desktop"], { readData, features }), undefined);
    assert.equal(
      JSON.parse(written.splice(0).join("")),
      JSON.parse((clientConfig("claude-desktop", info, stdio) as { text: string }).text),
    );
    assert.is(process.exitCode, undefined);
    assert.is(await printed(["--print-config", "zed"], { readData, features }), undefined);
    assert.is(process.exitCode, 2);
    process.exitCode = undefined;
    assert.is(await printed(["--print-config", "cursor"], { features }), undefined, "no data file");
    assert.is(process.exitCode, 2);
  } finally {
    process.stdout.write = original;
    process.stderr.write = originalErr;
    process.exitCode = 0;
  }
  assert.equal(written, []);
});

test.run();
