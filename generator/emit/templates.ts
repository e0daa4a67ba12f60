import { readFileSync } from "node:fs";
import { join } from "node:path";
import Handlebars from "handlebars";
import { packageRoot } from "../package-root.js";
import type { ProjectPlan } from "../plan/types.js";

/** Our own Handlebars environment: Markdown output, so no HTML escaping; cells escaped by helper. */
const hbs = Handlebars.create();
hbs.registerHelper("cell", (value: unknown) => String(value ?? "").replace(/\s*\n\s*/g, " ").replace(/\|/g, "\\|").trim());
hbs.registerHelper("firstLine", (value: unknown) => String(value ?? "").split(/\n/)[0]!.trim());
hbs.registerHelper("upper", (value: unknown) => String(value ?? "").toUpperCase());
hbs.registerHelper("json", (value: unknown) => JSON.stringify(value, null, 2));
hbs.registerHelper("hints", (annotations: { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean }) => {
  if (annotations.readOnlyHint) return "read-only";
  const hints = [annotations.destructiveHint ? "destructive" : "writes", annotations.idempotentHint ? "idempotent" : ""];
  return hints.filter(Boolean).join(", ");
});

const compiled = new Map<string, HandlebarsTemplateDelegate>();

/** The view every template gets: the plan plus derived values. */
function view(plan: ProjectPlan): Record<string, unknown> {
  const env: Record<string, string> = {};
  for (const variable of plan.env) if (variable.required) env[variable.name] = variable.example ?? "";
  const stdioServer = { command: "npx", args: ["-y", plan.packageName], ...(Object.keys(env).length > 0 ? { env } : {}) };
  return {
    ...plan,
    // Strict templates need every field present; secrets never get an example value.
    env: plan.env.map((variable) => ({ ...variable, example: variable.secret ? "" : (variable.example ?? "") })),
    serverUrl: plan.serverUrl
      ? { template: plan.serverUrl.template, variables: plan.serverUrl.variables.map((v) => ({ name: v.name, env: v.env, default: v.default ?? false, enum: v.enum ?? false })) }
      : false,
    specLabel: plan.specVersion === "2.0" ? "Swagger 2.0" : `OpenAPI ${plan.specVersion}`,
    claudeDesktop: { mcpServers: { [plan.binName]: stdioServer } },
    cursor: { mcpServers: { [plan.binName]: stdioServer } },
    vscode: { servers: { [plan.binName]: { type: "stdio", ...stdioServer } } },
    claudeCode: ["claude mcp add --transport stdio", ...Object.entries(env).map(([k, v]) => `--env ${k}=${v}`), plan.binName, "--", "npx", "-y", plan.packageName].join(" "),
  };
}

/** Renders one of `templates/*.hbs` with the project plan. */
export function renderTemplate(name: string, plan: ProjectPlan): string {
  let template = compiled.get(name);
  if (!template) {
    const source = readFileSync(join(packageRoot(), "templates", name), "utf8");
    template = hbs.compile(source, { noEscape: true, strict: true });
    compiled.set(name, template);
  }
  return template(view(plan));
}
