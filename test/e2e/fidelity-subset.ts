/**
 * The fidelity runner (`npm run fidelity`) on three small real specs of ../shared/corpus/dev and on
 * the repository's fixtures of issue 36's call classes (specs/fixtures/fidelity-*.yaml, the source
 * `fixtures`): every sampled call must be accepted by a Prism mock of the same spec, and none
 * refused by the server's own validation. Skipped when the shared corpus is not next to the
 * repository.
 *
 * Tier: end-to-end (npm test only, not npm run test:unit). Needs a Prism mock server and npm-installed corpus specs.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { formatFidelityRow, runFidelitySources, totals } from "../fidelity/run.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const corpusDir = join(root, "..", "shared", "corpus");
/** No auth (2.0 origin), HTTP basic, bearer: small specs whose every tool is called. */
const SUBSET = ["bikewise.org", "twilio.com/twilio_pricing_v2", "exoapi.dev"];
/**
 * One fixture per call class of issue 36: form and multipart fields by their encoding, a parameter
 * an apiKey credential fills, nullable query arrays, request and response media types, security
 * headers that must go out.
 */
const FIXTURES = [
  "fidelity-form-fields",
  "fidelity-apikey-parameter",
  "fidelity-nullable-array",
  "fidelity-media-types",
  "fidelity-security-header",
  // Issue 57: a Content-Type header parameter without a body; Swagger 2.0 form collections.
  "fidelity-entity-header",
  "fidelity-form-collections",
];

if (existsSync(join(corpusDir, "dev", "manifest.json"))) {
  test("fidelity subset: ≥ 99% of sampled calls accepted by Prism, 0 refused by our own validation", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mcp-gen-fidelity-"));
    try {
      const report = join(dir, "report.json");
      const lines: string[] = [];
      const rows = await runFidelitySources(
        {
          sources: ["dev", "fixtures"],
          spec: [...SUBSET, ...FIXTURES].join(","),
          sample: 20,
          seed: "ci",
          jobs: 3,
          report,
          keep: false,
          prismTimeout: 240,
          prismSubset: false,
        },
        root,
        corpusDir,
        (line) => lines.push(line),
      );
      const detail = `\n${lines.join("\n")}`;
      assert.is(rows.length, SUBSET.length + FIXTURES.length, `specs run${detail}`);
      for (const row of rows) {
        assert.is(row.error, undefined, `${formatFidelityRow(row)}${detail}`);
        assert.ok(row.sampled > 0 && row.sampled === row.tools, `every tool of ${row.id} is called${detail}`);
      }
      const t = totals(rows);
      assert.is(t.counts["own-refusal"], 0, `own-validation refusals${detail}`);
      assert.ok(t.acceptedShare >= 0.99, `accepted share ${t.acceptedShare}${detail}`);
      assert.ok(t.counts.accepted >= 10, `at least 10 calls judged and accepted${detail}`);
      // The JSON report holds the same totals.
      const written = JSON.parse(readFileSync(report, "utf8")) as { totals: { counts: { accepted: number } } };
      assert.is(written.totals.counts.accepted, t.counts.accepted);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
} else {
  test.skip("fidelity subset (../shared/corpus not present)", () => undefined);
}

test.run();
