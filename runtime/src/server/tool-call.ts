/**
 * `tools/call`: which tool runs, whether the call becomes a task, and the one code path of every
 * operation call ({@link ToolCaller.callOperation}) as named steps over the slots of the features
 * it consults (server/call-slots.ts) and the user's hooks (feature `custom`, server/custom-slot.ts).
 */
import type { StateStore } from "../state/state.js";
import type { ResponseInfo, UntypedApi } from "../api/api-client.js";
import type { Credentials } from "../upstream/auth-slot.js";
import type { Paging } from "../upstream/paging-slot.js";
import type { CustomTool, RequestTools } from "../api/extensions.js";
import type { InputRequiredResult, CallToolResult } from "../api/mcp-types.js";
import { ErrorCode, RpcError } from "../protocol/jsonrpc.js";
import { describeError, type Logger } from "../protocol/logger.js";
import { textResult } from "../api/tool-outcome.js";
import { isRecord } from "../protocol/own.js";
import type { HandlerContext, Params } from "./request-context.js";
import type { CallHookRunner, CustomCode } from "./custom-slot.js";
import type { CallGate, UserCredentials, UserSignIn } from "./call-slots.js";
import { Cancellation } from "../protocol/cancellation.js";
import type { ClientChannel } from "./request-tools.js";
import type { Tasks } from "./tasks-slot.js";
import type { AnyTool, ToolCatalog } from "./tool-catalog.js";
import type { ToolDefinition } from "../api/types.js";
import { callUpstream, type UpstreamOptions } from "../upstream/upstream.js";
import type { UpstreamQueue } from "../upstream/queue.js";
import type { SchemaValidator } from "../api/validation.js";
import { shapeOperationResult, takeFields, type ResultShaping } from "./result-step.js";

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
  /** Custom code's `api` client reads the value, not a model: no result budget (`_fields` still apply). */
  readonly unbudgeted?: boolean;
}

/**
 * One admitted operation call on its way through the steps of {@link ToolCaller.callOperation}:
 * what each step reads, and what it leaves for the next.
 */
class OperationCall {
  /** The arguments: as validated, then as the before-hooks leave them (what goes upstream). */
  args: Args;
  /** Passthrough credentials the request carries (feature `auth`), read when the call goes upstream. */
  passed: Record<string, string> | undefined;
  /** The calling user's own tokens (feature `user-oauth`). */
  user: UserCredentials | undefined;
  /** The upstream refused the user's tokens and they could not be renewed: sign in again. */
  signedOut = false;
  /** The caller's checked `_fields` (server/result-step.ts), taken out of the arguments. */
  fields: string[][] | undefined;
  /** Pages the call collects (feature `pagination`; 1 without it). */
  pages = 1;
  /** When the first upstream request left (ms since the epoch), for the log line of its response. */
  started = 0;
  /** The operation as log lines and progress name it: method and path template, never values, URLs or headers. */
  operation = "";
  /** The media type of the upstream's last response (the link to a shortened body says it). */
  mediaType: string | undefined;
  private madeTools: RequestTools | undefined;

  constructor(
    readonly name: string,
    readonly tool: ToolDefinition,
    args: Args,
    /** The request as if it had called the operation's own tool: MRTR state binds to the operation. */
    readonly params: Params,
    readonly context: OperationCallContext,
    private readonly channel: ClientChannel,
    /** Some hook runs around this tool's calls (the usual case is none: no await between the steps). */
    readonly hooked: boolean,
  ) {
    this.args = args;
  }

  get call(): HandlerContext {
    return this.context.call;
  }

  /** The request's tools (a dozen closures and an `api` client), made when a step first asks for them. */
  tools = (): RequestTools => (this.madeTools ??= this.channel.requestTools(this.params, this.context.call));
}

/** What a {@link ToolCaller} works with; every part is shared with the rest of the server. */
export interface ToolCallerOptions {
  catalog: ToolCatalog;
  channel: ClientChannel;
  validator: SchemaValidator;
  logger: Logger;
  /** The user's hooks around operation calls (feature `custom`); undefined: none. */
  hooks: CallHookRunner | undefined;
  /** Makes the `api` client of custom code (feature `custom`). */
  customCode: CustomCode | undefined;
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
  /** The result step: the budget and the links to complete bodies. */
  results: ResultShaping;
}

/** Serves `tools/call` and runs operations for the meta tools and code mode. */
export class ToolCaller {
  constructor(private readonly options: ToolCallerOptions) {}

  /**
   * `tools/call`: in line, or (modern clients, feature `tasks`) as a task when the tool allows it. Not
   * async: the call's own promise is handed back, no frame of this one kept around it for the whole
   * call; an unknown tool throws at once (the dispatcher's `try` answers it, as it did the rejection).
   */
  callTool(params: Params, call: HandlerContext): Promise<Record<string, unknown>> {
    const { catalog, tasks } = this.options;
    const name = params.name;
    if (typeof name !== "string") throw new RpcError(ErrorCode.InvalidParams, "tools/call requires a string 'name'");
    // A client served a profile's view calls on its surface.
    const meta = call.view ? call.view.meta : catalog.metaFor(call.ctx);
    const metaTool = meta?.find(name);
    const tool = metaTool ?? catalog.findOn(name, meta);
    if (!tool) throw new RpcError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
    // A meta tool that runs operations (call_operation) may become a task as their own tools may.
    const custom = "handler" in tool ? (tool as CustomTool<any>) : undefined;
    const operations = "http" in tool || (metaTool && meta!.runsOperations(name));
    const support = custom ? (custom.taskSupport ?? "forbidden") : operations ? "optional" : "forbidden";
    // An operation's call is started here, not through runTool: one async layer less on every call.
    if (!tasks || !call.era.modern || support === "forbidden")
      return "http" in tool
        ? this.callOperation(tool.name, params.arguments ?? {}, { params, call })
        : this.runTool(tool, params, call);
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
      catalog.operationNames.has(operation) && catalog.mayCall(operation, call.ctx);
    const run = (operation: string, operationArgs: Args, via?: { signal?: AbortSignal; fromCode?: boolean }) =>
      this.callOperation(operation, operationArgs, {
        params,
        call: via?.signal ? { ...call, cancellation: new Cancellation(via.signal) } : call,
        ...(via?.fromCode ? { fromCode: true } : {}),
      });
    return (call.view ? call.view.meta : catalog.metaFor(call.ctx))!.call(
      name,
      args,
      allowed,
      run,
      call.cancellation.signal,
    );
  }

  /**
   * Runs operation `name`: the one path of every operation call (its tool, `call_operation`, code,
   * `api`), as a list of steps over one {@link OperationCall}: admit → sign in → gate → before-hooks →
   * upstream (first page, a new sign-in if the tokens were refused, further pages) → after-hooks →
   * shape. Each step before the upstream may end the call with its answer; a
   * slot whose feature is off costs the call no step and no await.
   *
   * Where more plugs in: a check that may refuse the call (an inbound rate limit) is a step like
   * `gate`, in the chain below; a trace span wraps this method and each upstream request wraps
   * {@link fetchPage}; shaping of the result is a step after the upstream (or the after-hooks), on
   * `result`.
   */
  async callOperation(name: string, args: unknown, context: OperationCallContext): Promise<Outcome> {
    const op = this.admit(name, args, context);
    if (!(op instanceof OperationCall)) return op;
    const { userSignIn, gate } = this.options;
    const answer =
      (userSignIn && (await this.signIn(op, userSignIn))) ||
      (gate && (await this.gate(op, gate))) ||
      (op.hooked && (await this.beforeHooks(op)));
    if (answer) return answer;
    // The upstream: its steps are awaited here, not in a function of their own (one async layer less).
    this.beforeUpstream(op);
    let result = await this.fetchPage(op, op.args);
    if (op.signedOut && userSignIn) {
      // The upstream refused the user's tokens and they could not be renewed: sign in again, once.
      const signedIn = await this.signIn(op, userSignIn);
      if (signedIn) return signedIn;
      result = await this.fetchPage(op, op.args);
    }
    if (op.pages > 1) result = await this.collectPages(op, result);
    this.afterUpstream(op, result);
    const after = op.hooked ? await this.options.hooks!.after(op.tool, op.args, result, op.tools) : result;
    return this.shape(op, after);
  }

  /**
   * Last step, shape: the result sized for a model (server/result-step.ts): the caller's `_fields`,
   * the budget (not for code, which reads the value), the left-out content one link away. A result
   * within the budget without `_fields` comes back as it is, measured only.
   */
  private shape(op: OperationCall, result: CallToolResult): Promise<CallToolResult> | CallToolResult {
    const budgeted = !op.context.unbudgeted && !op.context.fromCode;
    if (result.isError || (!op.fields && !budgeted)) return result;
    return shapeOperationResult(op.tool, result, op.fields, budgeted, this.options.results, op.call, op.mediaType);
  }

  /**
   * Step 1, admit: the operation exists, the caller's scopes allow it, its arguments are valid. An
   * unknown operation, missing scopes and invalid arguments are tool errors (isError), not protocol
   * errors (SEP-1303); arguments that are not an object are (-32602).
   */
  private admit(name: string, args: unknown, context: OperationCallContext): OperationCall | Outcome {
    const { catalog, validator, channel, hooks } = this.options;
    const tool = catalog.operation(name);
    if (!tool) return textResult(`Unknown operation '${name}'. Use search_operations to find operation names.`, true);
    if (context.call.ctx.choice?.offered?.has(name) === false)
      return textResult(`Operation ${name} is outside the tools this connection chose (toolsets, read_only)`, true);
    if (!catalog.mayCall(name, context.call.ctx))
      return textResult(
        `Operation ${name} needs OAuth scopes this token lacks: ${catalog.requiredScopes(name).join(" ")}`,
        true,
      );
    const params: Params = { ...context.params, name, arguments: args };
    if (!isRecord(args)) throw new RpcError(ErrorCode.InvalidParams, `arguments for tool ${name} must be an object`);
    // `_fields` first, so an unknown path is answered with the nearest known ones, not an enum error.
    const taken = takeFields(tool, args);
    if ("result" in taken) return taken.result;
    const outcome = validator.validate(tool.inputSchema, taken.args, `input of tool ${name}`);
    if (!outcome.ok) return textResult(`Invalid arguments for tool ${name}: ${outcome.errors.join("; ")}`, true);
    const op = new OperationCall(name, tool, taken.args, params, context, channel, hooks?.has(name) === true);
    op.fields = taken.fields;
    // MRTR fields a request carries are checked up front (-32602), by making its tools.
    if ((params.inputResponses !== undefined || params.requestState !== undefined) && channel.hasTools) op.tools();
    return op;
  }

  /**
   * Step 2, sign in (feature `user-oauth`): the calling user's own tokens, or the answer asking them
   * to sign in. Before the gate: a modern retry after signing in finds the tokens and goes on to confirm.
   */
  private async signIn(op: OperationCall, signIn: UserSignIn): Promise<Outcome | undefined> {
    const { tool, call, context } = op;
    const user = await signIn.prepare({ tool, request: call, tools: op.tools(), fromCode: context.fromCode === true });
    if (user && "result" in user) return user.result;
    op.user = user;
    op.signedOut = false;
    return undefined;
  }

  /** Step 3, gate (feature `confirm`): the answer that stops the call (ask the user, refuse), if any. */
  private gate(op: OperationCall, gate: CallGate): Promise<Outcome | undefined> {
    return gate(op.tool, op.args, op.tools(), {
      modern: op.call.era.modern,
      fromCode: !!op.context.fromCode,
      state: this.options.state,
    });
  }

  /** Step 4, before-hooks: the user's `beforeCall` and the tool's `before` rewrite the arguments or answer. */
  private async beforeHooks(op: OperationCall): Promise<Outcome | undefined> {
    const before = await this.options.hooks!.before(op.tool, op.args, op.tools);
    if ("result" in before) return before.result;
    op.args = before.args;
    return undefined;
  }

  /** Step 5, upstream: progress 0 and a log line, the request's passthrough credentials, the pages to collect. */
  private beforeUpstream(op: OperationCall): void {
    const { channel, paging, credentials } = this.options;
    const { tool, params, call } = op;
    const operation = (op.operation = `${tool.http.method.toUpperCase()} ${tool.http.path}`);
    channel.progress(params, call, 0, 1, `calling ${operation}`);
    channel.log(call, "debug", { tool: op.name, event: "upstream request", operation });
    op.started = Date.now();
    op.passed = credentials?.fromRequest(call.ctx.headers);
    op.pages = paging?.pages(tool, op.args) ?? 1;
  }

  /** The further pages the caller asked for (feature `pagination`), each reported as progress. */
  private collectPages(op: OperationCall, firstPage: CallToolResult): Promise<CallToolResult> {
    const { channel } = this.options;
    const { params, call } = op;
    return this.options.paging!.collect(op.tool, op.args, firstPage, op.pages, (args) => this.fetchPage(op, args), {
      signal: call.cancellation.signal,
      onPage: (done, total) => channel.progress(params, call, done, total, `page ${done} of up to ${total}`),
    });
  }

  /** After the upstream: the log line of its response and, without pages, progress 1 (progress only grows). */
  private afterUpstream(op: OperationCall, result: CallToolResult): void {
    const { channel } = this.options;
    const ok = !result.isError;
    const ms = Date.now() - op.started;
    const operation = op.operation;
    channel.log(op.call, ok ? "info" : "warning", { tool: op.name, event: "upstream response", operation, ok, ms });
    if (op.pages <= 1) channel.progress(op.params, op.call, 1, 1, "done");
  }

  /** One upstream request of the call, with the request's and the user's credentials. */
  private fetchPage(op: OperationCall, pageArgs: Args): Promise<CallToolResult> {
    const { upstream, userAgent, validator, logger, credentials, paging, upstreamQueue } = this.options;
    const { user, passed, context } = op;
    return callUpstream(op.tool, pageArgs, {
      upstream,
      userAgent,
      validator,
      cancellation: op.call.cancellation,
      logger,
      credentials,
      paging,
      queue: upstreamQueue,
      trace: op.call.observed?.upstream,
      fromRequest: user ? { ...passed, ...user.credentials } : passed,
      ...(user ? { renewFromRequest: () => this.renewUser(op, user) } : {}),
      onResponse: (response) => {
        const type = response.headers["content-type"];
        op.mediaType = typeof type === "string" ? type : undefined;
        // A copy for user code (the `api` client), made only when some code asked for it.
        context.onResponse?.({
          status: response.statusCode,
          headers: { ...response.headers },
          ...(response.body.length === 0 ? { empty: true } : {}),
        });
      },
    });
  }

  /** After a 401: the user's refreshed tokens, or undefined when they were dropped (the call signs in again). */
  private async renewUser(op: OperationCall, user: UserCredentials): Promise<Record<string, string> | undefined> {
    const renewed = await user.renew();
    if (!renewed) op.signedOut = true;
    return renewed && { ...op.passed, ...renewed };
  }

  /** The `api` client of custom code serving `call`: its scopes, era and cancellation, not its MRTR fields. */
  api(call: HandlerContext): UntypedApi {
    const { catalog, customCode } = this.options;
    if (!customCode) return Object.create(null) as UntypedApi;
    return customCode.api({
      has: (name) => catalog.operationNames.has(name),
      response: (name) => catalog.operation(name)?.http.response,
      run: (name, args, options) => {
        const signal = options.signal ? AbortSignal.any([call.cancellation.signal, options.signal]) : undefined;
        const on = signal ? { ...call, cancellation: new Cancellation(signal) } : call;
        return this.callOperation(name, args, {
          params: {},
          call: on,
          onResponse: options.onResponse,
          unbudgeted: true,
        });
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
