import type { ToolPlan } from "../../plan/plan-types.js";

/** What a tool's type module is made of: part of its plan, plain data (it crosses to a worker thread). */
export type ToolTypeSource = Pick<
  ToolPlan,
  | "name"
  | "description"
  | "inputSchema"
  | "outputSchema"
  | "inputTypeName"
  | "outputTypeName"
  | "fileName"
  | "resultTypes"
> & {
  title?: string;
  http: Pick<ToolPlan["http"], "method" | "path"> & {
    response: Pick<ToolPlan["http"]["response"], "wrapKey" | "fallbackKey">;
  };
  /** The result carries `nextCursor` (upstream pagination). */
  paged: boolean;
};
