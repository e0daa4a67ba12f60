// The summary of npm run bench:http (scripts/bench-http.js): the table of medians over the runs, mcp-gen's paired
// ratios to the baselines beside the A/A control's (the measurement's own noise), and the targets.
import { median } from "./bench-parts.js";

/** The targets the report compares by name. */
export const SDK = "SDK 1.x stateless";
export const FLOOR = "floor (node:http + got)";
/** The same floor driven in revision 2026-07-28: the same request bytes as mcp-gen's modern calls. */
export const FLOOR_MODERN = "floor 2026-07-28";
/** The A/A control: the same floor in a second process, measured like every other target. */
export const CONTROL = "floor, second process";
/** The revisions mcp-gen is driven in; its targets are named `mcp-gen <mode>`. */
export const MODES = ["2025-06-18", "2026-07-28"];

/** The floor mcp-gen in revision `mode` is paired with: the floor driven in that same revision. */
const floorOf = (mode) => (mode === "2026-07-28" ? FLOOR_MODERN : FLOOR);

/**
 * Prints the report of `results` (results[target][clients] = [point per run]) for the `targets` (name per target)
 * and numbers of clients `concurrency`; `heading` is the summary's first line.
 */
export function printReport(results, targets, concurrency, heading) {
  const figures = figuresOf(results);
  printTable(figures, targets, concurrency, heading);
  printRatios(figures, concurrency);
  printTargets(
    figures,
    concurrency.filter((clients) => clients === 64 || clients === 256),
  );
}

/** The views of the results the report reads: medians and the runs' paired ratios. */
function figuresOf(results) {
  /** Median of one figure of a target's points at `clients`. */
  const med = (target, clients, figure) => median(results[target][clients].map((p) => p[figure]));
  /** The runs' paired ratios of `figure` of target `a` to target `b` at `clients`. */
  const ratios = (a, b, clients, figure) =>
    results[a][clients].map((p, i) => p[figure] / results[b][clients][i][figure]);
  /** "median× (run 1 / run 2 / …)" of those ratios. */
  const ratioText = (a, b, clients, figure) => {
    const each = ratios(a, b, clients, figure);
    return `${median(each).toFixed(2)}× (${each.map((r) => r.toFixed(2)).join(" / ")})`;
  };
  return { med, ratios, ratioText };
}

/** The table of medians over the runs, one row per number of clients and target. */
function printTable({ med }, targets, concurrency, heading) {
  console.log(`\n${heading}`);
  console.log("clients | server | calls/s | p50 ms | p99 ms | server CPU (% of a core) | CPU ms/call | RSS MB");
  for (const clients of concurrency)
    for (const name of targets)
      console.log(
        `${clients} | ${name} | ${med(name, clients, "rate").toFixed(0)} | ${med(name, clients, "p50").toFixed(1)} | ${med(name, clients, "p99").toFixed(1)} | ${(100 * med(name, clients, "cpuShare")).toFixed(0)} | ${med(name, clients, "cpuPerCall").toFixed(3)} | ${med(name, clients, "rss").toFixed(0)}`,
      );
}

/**
 * mcp-gen's paired ratios to the SDK and the floor (in the same revision), the floor's two revisions against each
 * other, and the control's ratio to the floor beside them: how far two identical servers stray in this same
 * measurement, the yardstick for reading mcp-gen's.
 */
function printRatios({ ratioText }, concurrency) {
  // Throughput is what the targets are written in; CPU per call is the figure other load on the machine moves least.
  console.log("\nmcp-gen against the baselines, median of the runs' paired ratios (per run in brackets):");
  for (const clients of concurrency) {
    for (const mode of MODES) {
      const name = `mcp-gen ${mode}`;
      const floor = floorOf(mode);
      console.log(
        `${String(clients).padStart(3)} clients · ${mode}: calls/s ${ratioText(name, SDK, clients, "rate")} the SDK's, ${ratioText(name, floor, clients, "rate")} the floor's; CPU per call ${ratioText(name, SDK, clients, "cpuPerCall")} the SDK's, ${ratioText(name, floor, clients, "cpuPerCall")} the floor's`,
      );
    }
    // What the modern request and answer cost by themselves, on both sides: the floor's two revisions.
    console.log(
      `${String(clients).padStart(3)} clients · the floor in 2026-07-28 against itself in 2025-06-18: calls/s ${ratioText(FLOOR_MODERN, FLOOR, clients, "rate")}; CPU per call ${ratioText(FLOOR_MODERN, FLOOR, clients, "cpuPerCall")}; mcp-gen 2026-07-28 against the 2025-06-18 floor: calls/s ${ratioText("mcp-gen 2026-07-28", FLOOR, clients, "rate")}`,
    );
    console.log(
      `${String(clients).padStart(3)} clients · the measurement's own noise (${CONTROL} against the floor): calls/s ${ratioText(CONTROL, FLOOR, clients, "rate")}; CPU per call ${ratioText(CONTROL, FLOOR, clients, "cpuPerCall")}`,
    );
  }
}

/**
 * The targets at 64 and 256 clients (`judged`): ahead of the SDK and at least 0.75× the floor's calls/s (the
 * floor in the same revision), in every run; then the control's lowest ratio, how far an identical server strays
 * from the floor.
 */
function printTargets({ ratios }, judged) {
  if (judged.length > 0)
    console.log("\ntargets (every run: ahead of the SDK's calls/s, at least 0.75× the floor's in the same revision):");
  const verdict = (each, bound) =>
    `${each.every((r) => r > bound) ? "met" : "NOT met"} (lowest ${Math.min(...each).toFixed(2)}×)`;
  for (const clients of judged) {
    for (const mode of MODES) {
      const name = `mcp-gen ${mode}`;
      const sdk = ratios(name, SDK, clients, "rate");
      const floor = ratios(name, floorOf(mode), clients, "rate");
      console.log(
        `${String(clients).padStart(3)} clients · ${mode}: against the SDK ${verdict(sdk, 1)}; against the floor (${mode}) ${verdict(floor, 0.75 - 1e-9)}`,
      );
    }
    // Two identical servers: either can be the one behind, so the floor's lowest against the control counts too.
    const control = ratios(CONTROL, FLOOR, clients, "rate");
    const lowest = (each) => Math.min(...each).toFixed(2);
    console.log(
      `${String(clients).padStart(3)} clients · control (${CONTROL} against the floor, the measurement's own noise): lowest ${lowest(control)}× (${control.map((r) => r.toFixed(2)).join(" / ")}); the floor against it, lowest ${lowest(control.map((r) => 1 / r))}×`,
    );
  }
}
