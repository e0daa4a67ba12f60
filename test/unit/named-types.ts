/**
 * The project's types from the full spec (plan/type-plan.ts, emit/typescript/named-types.ts, tool-module.ts):
 * every component a named, documented type — referenced or not —, recursion by name, discriminated
 * unions, nullable in 3.0 and 3.1, request and response shapes of readOnly/writeOnly schemas,
 * additionalProperties, enums; tool outputs by name (an array, binary, no content) and error
 * types; all of it compiled under strict, and the same text on every run.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import ts from "typescript";
import { generate } from "../../generator/pipeline/generate.js";
import type { EmittedFile } from "../../generator/pipeline/emit/emitted-file.js";
import { routeTypeName } from "../../generator/pipeline/plan/names.js";
import { typeBaseName } from "../../generator/pipeline/plan/plan-project.js";

const dir = mkdtempSync(join(tmpdir(), "mcp-gen-named-types-"));

const SPEC_30 = {
  openapi: "3.0.3",
  info: { title: "Types", version: "1.0.0" },
  paths: {
    "/pets": {
      get: {
        operationId: "listPets",
        responses: {
          "200": {
            description: "ok",
            content: { "application/json": { schema: { type: "array", items: { $ref: "#/components/schemas/Pet" } } } },
          },
          "404": {
            description: "none",
            content: { "application/json": { schema: { $ref: "#/components/schemas/Problem" } } },
          },
        },
      },
      post: {
        operationId: "createPet",
        requestBody: {
          required: true,
          content: { "application/json": { schema: { $ref: "#/components/schemas/Pet" } } },
        },
        responses: {
          "201": {
            description: "ok",
            content: { "application/json": { schema: { $ref: "#/components/schemas/Pet" } } },
          },
        },
      },
    },
    "/photo": {
      get: {
        operationId: "getPhoto",
        responses: {
          "200": { description: "ok", content: { "image/png": { schema: { type: "string", format: "binary" } } } },
        },
      },
    },
    "/pings/{pingId}": { delete: { responses: { "204": { description: "gone" } } } },
  },
  components: {
    schemas: {
      // Refers to itself through a map: TypeScript refuses `Record<string, JsonValue>` here (TS2456).
      JsonValue: {
        anyOf: [
          { type: "string" },
          { type: "array", items: { $ref: "#/components/schemas/JsonValue" } },
          { type: "object", additionalProperties: { $ref: "#/components/schemas/JsonValue" } },
        ],
      },
      Pet: {
        description: "A pet.\n\nSecond paragraph.",
        type: "object",
        required: ["id", "name", "kind"],
        properties: {
          id: { type: "integer", readOnly: true, description: "Assigned by the server." },
          name: { type: "string" },
          password: { type: "string", writeOnly: true },
          nickname: { type: "string", nullable: true },
          kind: { $ref: "#/components/schemas/Kind" },
          labels: { type: "object", additionalProperties: { type: "string" } },
          parent: { $ref: "#/components/schemas/Pet" },
          owner: {
            oneOf: [{ $ref: "#/components/schemas/Person" }, { $ref: "#/components/schemas/Company" }],
            discriminator: { propertyName: "type" },
          },
        },
      },
      Kind: { type: "string", enum: ["cat", "dog"] },
      Person: {
        type: "object",
        required: ["type"],
        properties: { type: { type: "string" }, name: { type: "string" } },
      },
      Company: {
        type: "object",
        required: ["type"],
        properties: { type: { type: "string" }, vat: { type: "string" } },
      },
      Problem: { type: "object", properties: { message: { type: "string" } }, additionalProperties: false },
      "tree-node": {
        type: "object",
        properties: { children: { type: "array", items: { $ref: "#/components/schemas/tree-node" } } },
      },
      Legacy: { type: "string", deprecated: true, description: "Old */ names." },
    },
  },
};

const SPEC_31 = {
  openapi: "3.1.0",
  info: { title: "Types 3.1", version: "1.0.0" },
  paths: {
    "/shapes": {
      get: {
        operationId: "listShapes",
        responses: {
          "200": {
            description: "ok",
            content: { "application/json": { schema: { $ref: "#/components/schemas/Shape" } } },
          },
        },
      },
    },
  },
  components: {
    schemas: {
      Shape: {
        anyOf: [{ $ref: "#/components/schemas/Circle" }, { $ref: "#/components/schemas/Square" }],
        discriminator: { propertyName: "kind", mapping: { round: "#/components/schemas/Circle" } },
      },
      Circle: {
        type: "object",
        required: ["kind", "radius"],
        properties: { kind: { type: "string" }, radius: { type: ["number", "null"] } },
      },
      Square: { type: "object", required: ["kind"], properties: { kind: { type: "string" }, side: { const: 1 } } },
      Bag: { type: "object", additionalProperties: true },
    },
  },
};

async function generated(spec: object, name: string, outputSchemas = true): Promise<Map<string, string>> {
  const path = join(dir, `${name}.json`);
  writeFileSync(path, JSON.stringify(spec));
  // The types are written for the project's own code: with feature custom.
  const result = await generate({ spec: path, outputSchemas, features: ["custom"] });
  return new Map(result.files.map((file: EmittedFile) => [file.path, file.content]));
}

/** Strict compile of the named types and the tool modules (the runtime's BinaryData stubbed). */
function typeCheck(files: Map<string, string>): string[] {
  const sources = new Map<string, string>();
  for (const [path, content] of files)
    if (
      path === "src/schemas.ts" ||
      path.startsWith("src/schemas/") ||
      (path.startsWith("src/tools/") && !path.endsWith("index.ts"))
    )
      sources.set(`/p/${path}`, content);
  sources.set(
    "/p/src/runtime/api/api-client.ts",
    "export interface BinaryData { mimeType: string; data: string; uri?: string }\n",
  );
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ["lib.es2023.d.ts"],
    types: [],
    skipLibCheck: true,
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  const directoryExists = host.directoryExists?.bind(host);
  host.readFile = (file) => sources.get(file) ?? readFile(file);
  host.fileExists = (file) => sources.has(file) || fileExists(file);
  host.directoryExists = (folder) =>
    [...sources.keys()].some((file) => file.startsWith(`${folder}/`)) || (directoryExists?.(folder) ?? false);
  host.getSourceFile = (file, language, onError) => {
    const text = sources.get(file);
    return text === undefined ? getSourceFile(file, language, onError) : ts.createSourceFile(file, text, language);
  };
  const program = ts.createProgram([...sources.keys()], options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => `${d.file?.fileName ?? ""}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
}

test("every component is a named, documented type: recursion by name, enums, maps, nullable, deprecated", async () => {
  const files = await generated(SPEC_30, "types-30");
  const schemas = files.get("src/schemas.ts")!;
  assert.match(schemas, /\/\*\*\n \* A pet\.\n \*\n \* Second paragraph\.\n \*\/\nexport interface Pet \{/);
  assert.match(schemas, /  \/\*\* Assigned by the server\. \*\/\n  id: number;/);
  assert.match(schemas, /  nickname\?: string \| null;/, "3.0 nullable");
  assert.match(schemas, /  kind: Kind;/);
  assert.match(schemas, /  labels\?: Record<string, string>;/, "additionalProperties as a map");
  assert.match(schemas, /\{ \[key: string\]: JsonValue \}/, "a map of itself as an index signature");
  assert.equal(typeCheck(files), [], "a schema that is a map of itself compiles");
  assert.match(schemas, /  parent\?: Pet;/, "a recursive schema refers to itself by name");
  assert.match(schemas, /export type Kind = "cat" \| "dog";/);
  assert.match(
    schemas,
    /export interface TreeNode \{\n  children\?: TreeNode\[\];\n\}/,
    "an unreferenced component too",
  );
  assert.match(schemas, /export interface Problem \{\n  message\?: string;\n\}/, "additionalProperties: false: closed");
  assert.match(schemas, /\/\*\*\n \* Old \*\\\/ names\.\n \*\n \* @deprecated\n \*\/\nexport type Legacy = string;/);
  assert.match(
    schemas,
    /  owner\?:\n    \| \(Person & \{\n        type: "Person";\n      \}\)\n    \| \(Company & \{\n        type: "Company";\n      \}\);/,
    "a discriminated union: each branch pins its discriminator value",
  );
});

test("readOnly/writeOnly: the type is what the API returns, …Request what it accepts", async () => {
  const schemas = (await generated(SPEC_30, "types-30"))!.get("src/schemas.ts")!;
  const pet = schemas.slice(
    schemas.indexOf("export interface Pet {"),
    schemas.indexOf("}\n", schemas.indexOf("export interface Pet {")),
  );
  const request = schemas.slice(schemas.indexOf("export interface PetRequest {"));
  assert.match(pet, /id: number;/);
  assert.not.match(pet, /password/, "write-only: never returned");
  assert.not.match(request.slice(0, request.indexOf("}\n")), /\bid:/, "read-only: never sent");
  assert.match(request, /  password\?: string;/);
  assert.match(request, /  parent\?: PetRequest;/, "the request shape refers to request shapes");
  assert.match(schemas, /`Pet` as sent in a request/);
  assert.not.match(schemas, /KindRequest|ProblemRequest/, "schemas without readOnly/writeOnly have one type");
});

test("tool types refer to the named types: an array, binary content, no content; error bodies typed", async () => {
  const files = await generated(SPEC_30, "types-30");
  const pets = files.get("src/tools/pets.ts")!;
  assert.match(pets, /import type \{ Pet, Kind, PetRequest, Person, Company \} from "\.\.\/schemas\.js";/);
  assert.match(pets, /export type ListPetsOutput = Pet\[\];/);
  assert.match(pets, /export interface CreatePetInput \{[\s\S]*  password\?: string;[\s\S]*  parent\?: PetRequest;/);
  assert.not.match(pets.slice(pets.indexOf("CreatePetInput")), /\bid: number/, "no read-only argument");
  const photo = files.get("src/tools/photo.ts")!;
  assert.match(photo, /import type \{ BinaryData \} from "\.\.\/runtime\/api\/api-client\.js";/);
  assert.match(photo, /export type GetPhotoOutput = BinaryData;/);
  assert.match(files.get("src/tools/pings.ts")!, /export type DeletePingsPingIdOutput = undefined;/);
  const index = files.get("src/tools/index.ts")!;
  assert.match(index, /listPets: Problem;/);
  assert.match(index, /listPets: \{ result: ListPetsOutput \} \| \{ unexpectedResponse: unknown \};/);
  assert.equal(typeCheck(files), []);
});

test("without output schemas the client gets a JSON object as is and other JSON as text: the types say so", async () => {
  const files = await generated(SPEC_30, "types-30-bare", false);
  const pets = files.get("src/tools/pets.ts")!;
  assert.match(pets, /export type ListPetsOutput = string;/, "an array body is the result's text");
  assert.match(pets, /export type CreatePetOutput = Pet;/, "an object body is structured content");
  assert.match(
    files.get("src/tools/index.ts")!,
    /listPets: unknown;\n  createPet: unknown;/,
    "no output schema: no wire shape",
  );
  assert.equal(typeCheck(files), []);
});

test("3.1: type lists with null, const, a discriminator mapping, an open map", async () => {
  const files = await generated(SPEC_31, "types-31");
  const schemas = files.get("src/schemas.ts")!;
  assert.match(schemas, /  radius: number \| null;/);
  assert.match(schemas, /  side\?: 1;/);
  assert.match(schemas, /export type Shape =\n  \| \(Circle & \{\n      kind: "round";/, "the mapping's value");
  assert.match(schemas, /\(Square & \{\n      kind: "Square";/, "the schema's name without a mapping");
  assert.match(schemas, /export type Bag = Record<string, unknown>;/);
  assert.match(files.get("src/tools/shapes.ts")!, /export type ListShapesOutput = Shape;/);
  assert.equal(typeCheck(files), []);
});

test("the types are the same text on every run", async () => {
  const first = await generated(SPEC_30, "types-30");
  const second = await generated(SPEC_30, "types-30");
  for (const path of ["src/schemas.ts", "src/tools/pets.ts", "src/tools/index.ts"])
    assert.is(second.get(path), first.get(path), path);
});

test("a tool name cut to 64 characters (hash) gives readable type names from method and path words", () => {
  assert.is(
    typeBaseName("replace_a_book_in_the_catalogue_keeping_its_loans_and_res_d9dd3e", {
      method: "put",
      path: "/books/{isbn}",
    }),
    "PutBooksIsbn",
  );
  assert.is(typeBaseName("listPets", { method: "get", path: "/pets" }), "ListPets", "readable names stay");
  const long = routeTypeName(
    "get",
    "/organizations/{org}/repositories/{repository_id}/environments/{environment_name}/deployment-branch-policies/{branch_policy_id}",
    54,
  );
  assert.ok(long.length <= 54 && long.startsWith("Get") && long.endsWith("BranchPolicyId"), long);
  assert.not.match(long, /[0-9a-f]{6}/);
});

test.run();
