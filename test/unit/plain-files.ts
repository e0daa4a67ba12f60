/**
 * Without feature `custom` the project's small TypeScript files are written as text
 * (emit/typescript/plain-files.ts), and the emit worker never loads ts-morph: the text is what
 * ts-morph prints for the same files, for every checked-in example and its feature variants.
 */
import { readFileSync } from "node:fs";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { generate } from "../../generator/pipeline/generate.js";
import { workerInput } from "../../generator/pipeline/emit/project-files.js";
import { EmitWorker } from "../../generator/pipeline/emit/worker/emit-worker.js";
import {
  printTypeScript,
  printedSmallFiles,
  printedToolSourceIndex,
  type TypeScriptInput,
} from "../../generator/pipeline/emit/typescript/typescript-files.js";
import { entryParts, entryPointText, serverInfoText } from "../../generator/pipeline/emit/typescript/plain-files.js";
import { loadTsMorph } from "../../generator/pipeline/emit/typescript/ts-morph.js";

const EXAMPLES = JSON.parse(readFileSync("specs/examples.json", "utf8")) as Array<{ spec: string; with?: string[] }>;

/** The example's features, and variants with and without `custom`, `large-data` and a target feature. */
function featureVariants(features: readonly string[]): string[][] {
  const without = features.filter((feature) => feature !== "custom");
  return [[...features], without, [...without, "large-data"], ["custom", ...without, "large-data", "fetch"]];
}

test("the text printer writes what ts-morph prints, for every example's entries and feature variants", async () => {
  const tsMorph = loadTsMorph();
  let compared = 0;
  for (const example of EXAMPLES) {
    const { plan } = await generate({ spec: example.spec, planOnly: true, features: example.with ?? [] });
    const base = workerInput(plan, true).typeScript;
    for (const features of featureVariants(base.features))
      for (const apiDocument of [true, false]) {
        const input: TypeScriptInput = { ...base, features, apiDocument };
        const [serverInfo, entry] = printedSmallFiles(input, tsMorph);
        assert.is(serverInfoText(input.serverInfo), serverInfo!.content, example.spec);
        assert.is(entryPointText(entryParts(apiDocument, features)), entry!.content, `${example.spec} ${features}`);
        if (!features.includes("custom")) {
          const printed = printTypeScript(input);
          assert.is(printed.printer, "text");
          assert.is(
            printed.files.find((file) => file.path === "src/tools/index.ts")!.content,
            printedToolSourceIndex(features, tsMorph),
          );
        }
        compared += 1;
      }
  }
  assert.is(compared, EXAMPLES.length * 4 * 2);
});

test("a generation without feature custom does not load ts-morph in the worker; with it, it does", async () => {
  for (const [features, loaded] of [
    [[], false],
    [["custom"], true],
  ] as const) {
    const { plan } = await generate({ spec: "specs/petstore.yaml", planOnly: true, features: [...features] });
    const worker = new EmitWorker();
    const output = await worker.run(workerInput(plan, true));
    worker.stop();
    assert.is(output.tsMorphLoaded, loaded, JSON.stringify(features));
    assert.is(output.printer, loaded ? "ts-morph" : "text");
  }
});

test.run();
