import type { ConfigVariable } from "../../../shared/contract.js";
import type { ProjectPlan } from "../../plan/plan-types.js";
/** The plan's environment variables as install snippets need them (secrets without examples). */
export function configVariables(plan: ProjectPlan): ConfigVariable[] {
  return plan.env.map((v) => ({
    name: v.name,
    required: v.required,
    ...(v.secret ? { secret: true } : v.example ? { example: v.example } : {}),
    description: v.description,
  }));
}
