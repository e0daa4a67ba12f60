/**
 * `tools/call`: which tool runs, whether the call becomes a task, and the one code path of every
 * operation call ({@link ToolCaller.callOperation}), with the slots of the features it consults.
 */
import { operationApi, type ResponseInfo, type UntypedApi } from "../api/api-client.js";
import type { Credentials } from "../upstream/auth.js";
import type { Paging } from "../upstream/paging.js";
import type { CallHooks, CustomTool, RequestTools, ToolHooks } from "../api/extensions.js";
import type { InputRequiredResult, CallToolResult } from "../api/mcp-types.js";
import { ErrorCode, RpcError } from "../protocol/jsonrpc.js";
import { describeError, type Logger } from "../protocol/logger.js";
import { textResult } from "../api/tool-outcome.js";
import { getOwn, isRecord } from "../protocol/own.js";
import type { HandlerContext, Params, RequestContext } from "./request-context.js";
import { Cancellation } from "../protocol/cancellation.js";
import type { ClientChannel } from "./request-tools.js";
import type { Tasks } from "./tasks.js";
import type { AnyTool, ToolCatalog } from "./tool-catalog.js";
import type { ToolDefinition } from "../api/types.js";
import { callUpstream, type UpstreamOptions } from "../upstream/upstream.js";
import type { UpstreamQueue } from "../upstream/queue.js";
import type { SchemaValidator } from "../api/validation.js";
import type { StateStore } from "../state/state.js";

type Args = Record<string, unknown>;
type Outcome = CallToolResult | InputRequiredResult;

/** What an operation call runs on behalf of: the request's params (progress token, MRTR fields) and context. */
interface OperationCallContext {
  readonly params: Params;
  readonly call: HandlerContext;
  /** Told each upstream response's status and headers (the typed `api` client's `{ response: true }`). */
  readonly onResponse?: (response: ResponseInfo) => void;
  /** The call comes from an `execute_code` script (a gate may refuse what needs the user). */
  readonly fromCode?: boolean;
}

/** A check of a validated operation call before it goes upstream (feature `confirm`): undefined lets it through. */
export type CallGate = (
  tool: ToolDefinition,
  args: Args,
  tools: RequestTools,
  call: {
    modern: boolean;
    fromCode: boolean;
    /** The server's state store (shared by every instance with Redis); undefined: this process's memory only. */
    state: StateStore | undefined;
  },
) => Promise<Outcome | undefined>;

/** One operation call as the per-user credentials slot (feature `user-oauth`) sees it. */
export interface UserSignInCall {
  tool: ToolDefinition;
  request: HandlerContext;
  tools: RequestTools;
  /** The call comes from an `execute_code` script, which cannot ask the user. */
  fromCode: boolean;
}

/** The user's tokens for the call, or the answer that asks them to sign in. */
export type UserSignInOutcome =
  | {
      /** Credentials by scheme key, applied as passthrough credentials are. */
      credentials: Record<string, string>;
      /** After a 401: refreshed credentials, or undefined when the tokens were dropped (sign in again). */
      renew(): Promise<Record<string, string> | undefined>;
    }
  | { result: CallToolResult | InputRequiredResult };

/** Per-user credentials of a server. */
export interface UserSignIn {
  /** Undefined when the operation needs no per-user credentials; may throw an RpcError (-32042). */
  prepare(call: UserSignInCall): Promise<UserSignInOutcome | undefined>;
}

/** Makes the per-user credentials of a server over its state store (shared across instances or not). */
export type MakeUserSignIn = (context: { state: StateStore | undefined; logger: Logger }) => UserSignIn;

/** What a {@link ToolCaller} works with; every part is shared with the rest of the server. */
export interface ToolCallerOptions {
  catalog: ToolCatalog;
  channel: ClientChannel;
  validator: SchemaValidator;
  logger: Logger;
  hooks: CallHooks | undefined;
  /** Feature slots (confirm, tasks, auth, pagination, user-oauth); undefined: off. */
  gate: CallGate | undefined;
  /** The state store the gate may keep what it must remember in. */
  state?: StateStore | undefined;
  tasks: Tasks | undefined;
  credentials: Credentials | undefined;
  paging: Paging | undefined;
  userSignIn?: UserSignIn | undefined;
  upstream: UpstreamOptions;
  userAgent: string;
  /** Every upstream call of the server waits here for one of a bounded number of slots. */
  upstreamQueue: UpstreamQueue;
}

/** Serves `tools/call` and runs operations for the meta tools and code mode. */
export class ToolCaller {
  constructor(private readonly options: ToolCallerOptions) {}

  /** `tools/call`: in line, or (modern clients, feature `tasks`) as a task when the tool allows it. */
  async callTool(params: Params, call: HandlerContext): Promise<Record<string, unknown>> {
    const { catalog, tasks } = this.options;
    const name = params.name;
    if (typeof name !== "string") throw new RpcError(ErrorCode.InvalidParams, "tools/call requires a string 'name'");
    // A client served a profile's view calls on its surface.
    const meta = call.view ? call.view.meta : catalog.meta;
    const metaTool = meta?.find(name);
    const tool = metaTool ?? catalog.findOn(name, meta);
    if (!tool) throw new RpcError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
    // A meta tool that runs operations (call_operation) may become a task as their own tools may.
    const custom = "handler" in tool ? (tool as CustomTool<any>) : undefined;
    const operations = "http" in tool || (metaTool && meta!.runsOperations(name));
    const support = custom ? (custom.taskSupport ?? "forbidden") : operations ? "optional" : "forbidden";
    // An operation's call is awaited here, not through runTool: one async layer less on every call.
    if (!tasks || !call.era.modern || support === "forbidden")
      return await ("http" in tool
        ? this.callOperation(tool.name, params.arguments ?? {}, { params, call })
        : this.runTool(tool, params, call));
    const afterMs = custom ? (custom.taskAfterMs ?? 0) : undefined;
    return tasks.call((p, c) => this.runTool(tool, p, c), params, call, support, afterMs);
  }

  /** Runs one tool call to its result (or an `input_required` result): a meta tool, an operation or a custom tool. */
  private async runTool(tool: AnyTool, params: Params, call: HandlerContext): Promise<Outcome> {
    if ("http" in tool) return await this.callOperation(tool.name, params.arguments ?? {}, { params, call });
    const { catalog, validator, channel } = this.options;
    const name = tool.name;
    const args = params.arguments ?? {};
    if (!isRecord(args)) throw new RpcError(ErrorCode.InvalidParams, `arguments for tool ${name} must be an object`);
    const outcome = validator.validate(tool.inputSchema, args, `input of tool ${name}`);
    if (!outcome.ok) return textResult(`Invalid arguments for tool ${name}: ${outcome.errors.join("; ")}`, true);
    if ("handler" in tool) return this.callCustomTool(tool, args, channel.requestTools(params, call));
    const allowed = (operation: string): boolean =>
      catalog.operationNames.has(operation) && catalog.mayCall(operation, call.ctx.scopes);
    const run = (operation: string, operationArgs: Args, via?: { signal?: AbortSignal; fromCode?: boolean }) =>
      this.callOperation(operation, operationArgs, {
        params,
        call: via?.signal ? { ...call, cancellation: new Cancellation(via.signal) } : call,
        ...(via?.fromCode ? { fromCode: true } : {}),
      });
    return (call.view ? call.view.meta : catalog.meta)!.call(name, args, allowed, run, call.cancellation.signal);
  }

  /** Runs operation `name`: the one path of every operation call (its tool, `call_operation`, code, `api`). */
  async callOperation(name: string, args: unknown, context: OperationCallContext): Promise<Outcome> {
    const { catalog, validator, channel, hooks, logger } = this.options;
    const call = context.call;
    const tool = catalog.operation(name);
    if (!tool) return textResult(`Unknown operation '${name}'. Use search_operations to find operation names.`, true);
    if (!catalog.mayCall(name, call.ctx.scopes))
      return textResult(
        `Operation ${name} needs OAuth scopes this token lacks: ${catalog.requiredScopes(name).join(" ")}`,
        true,
      );
    // The request as if it had called the operation's own tool: MRTR state binds to the operation.
    const params: Params = { ...context.params, name, arguments: args };
    if (!isRecord(args)) throw new RpcError(ErrorCode.InvalidParams, `arguments for tool ${name} must be an object`);

    // Input-validation failures are tool errors (isError), not protocol errors (SEP-1303).
    const outcome = validator.validate(tool.inputSchema, args, `input of tool ${name}`);
    if (!outcome.ok) return textResult(`Invalid arguments for tool ${name}: ${outcome.errors.join("; ")}`, true);
    // The request's tools (a dozen closures and an `api` client) are made when a sign-in, gate or hook
    // asks for them, not per call; MRTR fields a request carries are checked up front (-32602).
    let madeTools: RequestTools | undefined;
    const tools = (): RequestTools => (madeTools ??= channel.requestTools(params, call));
    if (params.inputResponses !== undefined || params.requestState !== undefined) tools();

    // The calling user's own tokens (feature user-oauth), or the answer asking them to sign in. Before
    // the confirmation: a modern retry after signing in finds the tokens and goes on to confirm.
    const signIn = this.options.userSignIn;
    const signInCall = () => ({ tool, request: call, tools: tools() });
    let user = signIn ? await signIn.prepare({ ...signInCall(), fromCode: context.fromCode === true }) : undefined;
    if (user && "result" in user) return user.result;
    const passed = this.options.credentials?.fromRequest(call.ctx.headers);
    let signedOut = false;
    const renewUser =
      user &&
      (async () => {
        const renewed = await (user as { renew(): Promise<Record<string, string> | undefined> }).renew();
        if (!renewed) signedOut = true;
        return renewed && { ...passed, ...renewed };
      });

    const gate = this.options.gate;
    const refused =
      gate &&
      (await gate(tool, args, tools(), {
        modern: call.era.modern,
        fromCode: !!context.fromCode,
        state: this.options.state,
      }));
    if (refused) return refused;

    // Without hooks for this tool (the usual case) the arguments go upstream as they are, with no await in between.
    const hooked = hooks !== undefined && (hooks.beforeCall || hooks.afterCall || toolHooks(hooks, name)) !== undefined;
    const before = hooked ? await runBeforeHooks(hooks, tool, args, tools) : { args };
    if ("result" in before) return before.result;
    const upstreamArgs = before.args;

    // Log lines name the operation template only: never argument values, URLs or headers.
    const operation = `${tool.http.method.toUpperCase()} ${tool.http.path}`;
    channel.progress(params, call, 0, 1, `calling ${operation}`);
    channel.log(call, "debug", { tool: name, event: "upstream request", operation });
    const started = Date.now();
    const fetchPage = (pageArgs: Record<string, unknown>) =>
      callUpstream(tool, pageArgs, {
        upstream: this.options.upstream,
        userAgent: this.options.userAgent,
        validator,
        cancellation: call.cancellation,
        logger,
        credentials: this.options.credentials,
        paging: this.options.paging,
        queue: this.options.upstreamQueue,
        fromRequest: user && "credentials" in user ? { ...passed, ...user.credentials } : passed,
        ...(renewUser ? { renewFromRequest: renewUser } : {}),
        ...(context.onResponse ? { onResponse: context.onResponse } : {}),
      });
    const paging = this.options.paging;
    const pages = paging?.pages(tool, upstreamArgs) ?? 1;
    let firstPage = await fetchPage(upstreamArgs);
    // The upstream refused the user's tokens and they could not be refreshed: sign in again, once.
    if (signedOut && signIn) {
      user = await signIn.prepare({ ...signInCall(), fromCode: context.fromCode === true });
      if (user && "result" in user) return user.result;
      signedOut = false;
      firstPage = await fetchPage(upstreamArgs);
    }
    const upstreamResult =
      paging && pages > 1
        ? await paging.collect(tool, upstreamArgs, firstPage, pages, fetchPage, {
            signal: call.cancellation.signal,
            onPage: (done, total) => channel.progress(params, call, done, total, `page ${done} of up to ${total}`),
          })
        : firstPage;
    channel.log(call, upstreamResult.isError ? "warning" : "info", {
      tool: name,
      event: "upstream response",
      operation,
      ok: !upstreamResult.isError,
      ms: Date.now() - started,
    });
    // Progress must only grow: a collection already reported its pages.
    if (pages <= 1) channel.progress(params, call, 1, 1, "done");
    return hooked ? runAfterHooks(hooks, tool, upstreamArgs, upstreamResult, tools) : upstreamResult;
  }

  /** The `api` client of custom code serving `call`: its scopes, era and cancellation, not its MRTR fields. */
  api(call: HandlerContext): UntypedApi {
    const { catalog } = this.options;
    return operationApi({
      has: (name) => catalog.operationNames.has(name),
      response: (name) => catalog.operation(name)?.http.response,
      run: (name, args, options) => {
        const signal = options.signal ? AbortSignal.any([call.cancellation.signal, options.signal]) : undefined;
        const on = signal ? { ...call, cancellation: new Cancellation(signal) } : call;
        return this.callOperation(name, args, { params: {}, call: on, onResponse: options.onResponse });
      },
    });
  }

  /** Runs a custom tool; protocol errors (RpcError) propagate, anything else is an `isError` result. */
  private async callCustomTool(tool: CustomTool<any>, args: Params, tools: RequestTools): Promise<Outcome> {
    try {
      return await tool.handler(args, tools);
    } catch (error) {
      if (error instanceof RpcError || tools.signal.aborted) throw error;
      this.options.logger.warn(`custom tool ${tool.name} failed`, { error: describeError(error) });
      return textResult(error instanceof Error ? error.message : String(error), true);
    }
  }
}

/**
 * The user's hooks around one operation call (extensions.ts), like layers: `beforeCall`, the
 * tool's own `before` (keyed by tool name in the same object), the upstream call, its `after`,
 * `afterCall`. A `before` that returns a result ends the call there.
 */
function toolHooks(hooks: CallHooks, name: string): ToolHooks<Args, unknown> | undefined {
  // Own property only: a tool named `constructor` finds nothing inherited.
  const entry = name === "beforeCall" || name === "afterCall" ? undefined : getOwn(hooks, name);
  return isRecord(entry) ? (entry as ToolHooks<Args, unknown>) : undefined;
}

/**
 * Runs the `before` hooks: the arguments to send upstream, or the result that replaces the call.
 * `tools` is asked for only when a hook runs: a server with hooks for some tools builds nothing
 * for the calls of the others.
 */
async function runBeforeHooks(
  hooks: CallHooks,
  tool: ToolDefinition,
  args: Args,
  tools: () => RequestTools,
): Promise<{ args: Args } | { result: CallToolResult }> {
  let current = args;
  for (const before of [hooks.beforeCall?.bind(hooks, tool), toolHooks(hooks, tool.name)?.before]) {
    if (!before) continue;
    const outcome = await before(current, tools());
    if (isRecord(outcome) && Array.isArray(outcome.content)) return { result: outcome as CallToolResult };
    if (isRecord(outcome)) current = outcome;
  }
  return { args: current };
}

/** Runs the `after` hooks on the call's result: the result to return (`tools` as for the `before` hooks). */
async function runAfterHooks(
  hooks: CallHooks,
  tool: ToolDefinition,
  args: Args,
  result: CallToolResult,
  tools: () => RequestTools,
): Promise<CallToolResult> {
  const own = toolHooks(hooks, tool.name)?.after;
  let current = own ? ((await own(result, args, tools())) ?? result) : result;
  if (hooks.afterCall) current = (await hooks.afterCall(tool, args, current, tools())) ?? current;
  return current;
}
