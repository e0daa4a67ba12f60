/**
 * `report.html`: the fleet report as one self-contained page (inline CSS and an inline SVG chart,
 * no script, nothing fetched), from `templates/workspace-report.html.hbs`. Every interpolation goes
 * through the `html` helper (character references for `& < > " '`), so spec text, server names and
 * messages cannot open markup.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Handlebars from "handlebars";
import { htmlText } from "../../pipeline/emit/publishing/escape.js";
import { packageRoot } from "../../shared/package-root.js";
import type { FleetReport, ServerReport } from "./report-data.js";

const hbs = Handlebars.create();
hbs.registerHelper("html", (value: unknown) =>
  htmlText(typeof value === "number" ? value.toLocaleString("en-US") : value),
);

let template: HandlebarsTemplateDelegate | undefined;

const COLORS = { passing: "#2da44e", failing: "#cf222e", "not tested": "#8c959f", "not built": "#8c959f" } as const;
const CHART = { span: 440, barHeight: 18, gap: 8, valueSpace: 90 } as const;

/** Bars of the chart: one per server, as long as its tools/list is large (the largest spans the chart). */
function chart(servers: ServerReport[]): Record<string, unknown> {
  const largest = Math.max(1, ...servers.map((s) => s.toolsList?.tokens ?? 0));
  // Room for the longest name at about 7 px a character (12 px system font).
  const labelWidth = Math.min(420, 16 + 7 * Math.max(8, ...servers.map((s) => s.name.length)));
  const span = CHART.span;
  const bars = servers.map((server, i) => {
    const tokens = server.toolsList?.tokens ?? 0;
    const width = Math.max(2, Math.round((span * tokens) / largest));
    const y = 4 + i * (CHART.barHeight + CHART.gap);
    return {
      name: server.name,
      y,
      textY: y + CHART.barHeight - 5,
      width,
      valueX: labelWidth + width,
      value: `~${tokens.toLocaleString("en-US")}`,
      color: COLORS[server.status],
    };
  });
  return {
    labelWidth,
    barHeight: CHART.barHeight,
    width: labelWidth + span + CHART.valueSpace,
    height: 8 + servers.length * (CHART.barHeight + CHART.gap),
    bars,
  };
}

/** What one row and one details block show. */
function serverView(server: ServerReport): Record<string, unknown> {
  const stdio = server.compliance?.find((c) => c.transport === "stdio");
  const scores = server.compliance ?? [];
  const perfect = scores.length > 0 && scores.every((c) => c.score === 100);
  return {
    ...server,
    version: server.version ?? "–",
    previousVersion: server.previousVersion ?? false,
    surface: server.surface
      ? server.surface.requested === server.surface.served
        ? server.surface.served
        : `${server.surface.requested} → ${server.surface.served}`
      : "–",
    surfaceReason: server.surface?.reason ?? false,
    tools: server.tools ?? "–",
    listSize: server.toolsList
      ? `${server.toolsList.tools} tools, ~${server.toolsList.tokens.toLocaleString("en-US")} tokens`
      : "–",
    testsText: server.tests
      ? `${server.tests.passed} / ${server.tests.failed}${server.tests.skipped ? ` (${server.tests.skipped} skipped)` : ""}`
      : "not run",
    testsClass: !server.tests ? "muted" : server.tests.failed > 0 ? "bad" : "ok",
    scoreText:
      scores.length > 0
        ? scores.map((c) => `${c.score}/100${scores.length > 1 ? ` ${c.transport}` : ""}`).join(", ")
        : stdio
          ? ""
          : "not run",
    scoreClass: scores.length === 0 ? "muted" : perfect ? "ok" : "bad",
    changes: server.changes ?? false,
    generatedText:
      server.generated === "unchanged"
        ? "unchanged"
        : server.generated === "created"
          ? "first build"
          : server.generated === "updated"
            ? "updated"
            : "not built",
    failedChecks: scores.flatMap((c) =>
      c.failed.map((f) => ({ id: scores.length > 1 ? `${c.transport}: ${f.id}` : f.id, message: f.message })),
    ),
    testFailures: server.tests?.failures ?? [],
    moreWarnings: server.warnings.count > server.warnings.items.length,
    // Servers that need attention are shown open.
    open: server.status === "failing" || server.changes !== undefined,
  };
}

/** Renders the report as a self-contained HTML page. */
export function renderReportHtml(report: FleetReport): string {
  template ??= hbs.compile(readFileSync(join(packageRoot(), "templates", "workspace-report.html.hbs"), "utf8"), {
    noEscape: true,
    strict: true,
  });
  const { compliance } = report.totals;
  return template({
    report,
    servers: report.servers.map(serverView),
    chart: chart(report.servers),
    testsClass: report.totals.tests.failed > 0 ? "bad" : "ok",
    complianceText: compliance.checked > 0 ? `${compliance.perfect} / ${compliance.checked}` : "not run",
    complianceClass: compliance.checked === 0 ? "muted" : compliance.perfect === compliance.checked ? "ok" : "bad",
    tokensText: `~${report.totals.toolsListTokens.toLocaleString("en-US")}`,
    breakingClass: report.totals.breaking > 0 ? "bad" : "ok",
  });
}
