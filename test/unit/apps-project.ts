/**
 * A project generated `--with apps`: its build bundles the views' script (scripts/bundle-views.mjs,
 * the folder left out of tsc), it depends on the extension's package, its README says what the
 * views are; and it costs nothing otherwise: the same spec without apps has none of it, and the
 * data files a server lists its tools from are byte for byte the same either way.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { generate } from "../../generator/pipeline/generate.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const spec = join(root, "specs", "petstore.yaml");
const files = async (features: string[]): Promise<Map<string, string>> =>
  new Map((await generate({ spec, features })).files.map((file) => [file.path, file.content]));

test("with apps: the views' bundle step, its package for the build, the feature vendored, the README's paragraph", async () => {
  const project = await files(["apps"]);
  const manifest = JSON.parse(project.get("package.json")!) as Record<string, any>;
  assert.match(manifest.scripts.build, /&& node scripts\/bundle-views\.mjs$/);
  // Only the build needs the extension's package: a devDependency, not installed with the published server.
  assert.is(manifest.devDependencies["@modelcontextprotocol/ext-apps"], "2.0.4");
  assert.is(manifest.dependencies["@modelcontextprotocol/ext-apps"], undefined);
  assert.equal(JSON.parse(project.get("tsconfig.json")!).exclude, ["src/runtime/features/apps/view"]);
  assert.match(project.get("scripts/bundle-views.mjs")!, /features\/apps\/view\/view-entry\.ts/);
  assert.ok(project.has("src/runtime/features/apps/view/view-entry.ts"));
  assert.match(project.get("src/index.ts")!, /import \{ apps \} from "\.\/runtime\/features\/apps\/index\.js"/);
  assert.match(project.get("README.md")!, /Views \(MCP Apps\)/);
  // The image's build runs `npm run build`, bundle-views step included.
  assert.match(
    project.get("Dockerfile")!,
    /\nCOPY scripts\/bundle-views\.mjs \.\/scripts\/bundle-views\.mjs\nRUN npm run build/,
  );
});

test("without apps: none of it, and the tools' data files are byte-identical to the project with apps", async () => {
  const [plain, views] = await Promise.all([files([]), files(["apps"])]);
  assert.not.ok([...plain.keys()].some((path) => path.includes("apps") || path.includes("bundle-views")));
  assert.not.ok(plain.get("package.json")!.includes("ext-apps"));
  assert.not.ok(plain.get("README.md")!.includes("MCP Apps"));
  assert.not.ok(plain.get("Dockerfile")!.includes("bundle-views"));
  const data = [...plain.keys()].filter((path) => path.startsWith("data/"));
  assert.ok(data.includes("data/tools.json"));
  for (const path of data) assert.is(views.get(path), plain.get(path), path);
});

test.run();
