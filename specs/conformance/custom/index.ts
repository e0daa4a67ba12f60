// The conformance fixture: the reference tools, resources and prompts the MCP conformance
// scenarios call (names and payloads from the scenario descriptions of
// @modelcontextprotocol/conformance), written against mcp-gen's extension API. The test copies
// this file over src/custom/index.ts of a server generated from ../openapi.yaml.
import { defineExtension, type CustomTool, type InputRequest, type RequestTools } from "../runtime/features/custom/define-extension.js";
import { ErrorCode, RpcError } from "../runtime/protocol/jsonrpc.js";

/** A 1×1 PNG. */
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

/** A valid, silent 8 kHz mono 16-bit WAV of 8 samples. */
function wav(): string {
  const samples = 8;
  const buffer = Buffer.alloc(44 + samples * 2);
  buffer.write("RIFF", 0, "ascii");
  buffer.writeUInt32LE(36 + samples * 2, 4);
  buffer.write("WAVEfmt ", 8, "ascii");
  buffer.writeUInt32LE(16, 16);
  buffer.writeUInt16LE(1, 20);
  buffer.writeUInt16LE(1, 22);
  buffer.writeUInt32LE(8000, 24);
  buffer.writeUInt32LE(16000, 28);
  buffer.writeUInt16LE(2, 32);
  buffer.writeUInt16LE(16, 34);
  buffer.write("data", 36, "ascii");
  buffer.writeUInt32LE(samples * 2, 40);
  return buffer.toString("base64");
}

const NO_ARGS = { type: "object" as const, properties: {}, additionalProperties: false };
const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });

function pause(ms: number, tools: RequestTools): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    tools.signal.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });
}

const ask = (message: string, property: string, type = "string"): InputRequest => ({
  method: "elicitation/create",
  params: { message, requestedSchema: { type: "object", properties: { [property]: { type } }, required: [property] } },
});
const sample = (prompt: string, maxTokens: number): InputRequest => ({
  method: "sampling/createMessage",
  params: { messages: [{ role: "user", content: { type: "text", text: prompt } }], maxTokens },
});
const ROOTS: InputRequest = { method: "roots/list", params: {} };

/** The `content` field of an elicitation answer, or {}. */
function answer(response: Record<string, unknown> | undefined): Record<string, unknown> {
  const content = response?.content;
  return typeof content === "object" && content !== null ? (content as Record<string, unknown>) : {};
}

/** The text of a sampling answer. */
function sampled(response: Record<string, unknown> | undefined): string {
  const content = response?.content as { text?: unknown } | undefined;
  return typeof content?.text === "string" ? content.text : "";
}

/** The root URIs of a roots/list answer. */
function rootUris(response: Record<string, unknown> | undefined): string[] {
  const roots = Array.isArray(response?.roots) ? (response!.roots as Array<{ uri?: unknown }>) : [];
  return roots.map((root) => String(root.uri));
}

const elicited = (label: string, result: Record<string, unknown>) =>
  text(`${label}: action=${String(result.action)}, content=${JSON.stringify(result.content ?? {})}`);

/**
 * The tasks-extension fixtures (SEP-2663 scenarios). Task-capable tools become tasks for clients
 * that declared io.modelcontextprotocol/tasks as soon as they do not settle at once; the ones
 * that ask for input first do a short piece of work, so the question is asked inside the task.
 */
const taskTools: CustomTool<any>[] = [
  {
    name: "greet",
    description: "Greets someone (always synchronous).",
    inputSchema: { type: "object" as const, properties: { name: { type: "string" } }, required: ["name"] },
    handler: (args: { name: string }) => text(`Hello, ${args.name}!`),
  },
  {
    name: "slow_compute",
    description: "Sleeps for `seconds`, then answers; runs as a task for clients that allow it.",
    inputSchema: { type: "object" as const, properties: { seconds: { type: "number", minimum: 0 }, label: { type: "string" } }, required: ["seconds"] },
    taskSupport: "optional",
    handler: async (args: { seconds: number; label?: string }, tools: RequestTools) => {
      await pause(args.seconds * 1000, tools);
      return text(`Computed ${args.label ?? "result"} after ${args.seconds} s.`);
    },
  },
  {
    name: "failing_job",
    description: "Runs for about a second, then reports a tool error; needs the tasks extension.",
    inputSchema: NO_ARGS,
    taskSupport: "required",
    handler: async (_args: Record<string, never>, tools: RequestTools) => {
      await pause(1000, tools);
      return { ...text("The job failed: the input could not be processed."), isError: true };
    },
  },
  {
    name: "protocol_error_job",
    description: "Runs briefly, then fails with a JSON-RPC internal error.",
    inputSchema: NO_ARGS,
    taskSupport: "optional",
    handler: async (_args: Record<string, never>, tools: RequestTools) => {
      await pause(100, tools);
      throw new RpcError(ErrorCode.InternalError, "The job crashed.");
    },
  },
  {
    name: "confirm_delete",
    description: "Looks the file up, then asks the user to confirm deleting it.",
    inputSchema: { type: "object" as const, properties: { filename: { type: "string" } }, required: ["filename"] },
    taskSupport: "optional",
    handler: async (args: { filename: string }, tools: RequestTools) => {
      await pause(50, tools);
      const answer = tools.inputResponses.confirm;
      if (!answer) return tools.inputRequired({ confirm: ask(`Delete ${args.filename}?`, "confirm", "boolean") });
      return text(answer.action === "accept" && (answer.content as { confirm?: unknown } | undefined)?.confirm === true ? `Deleted ${args.filename}.` : `Kept ${args.filename}.`);
    },
  },
  {
    name: "multi_input",
    description: "Asks two questions at once, then answers.",
    inputSchema: NO_ARGS,
    taskSupport: "optional",
    handler: async (_args: Record<string, never>, tools: RequestTools) => {
      await pause(50, tools);
      const { first, second } = tools.inputResponses;
      if (!first || !second) return tools.inputRequired({ first: ask("First: your name?", "name"), second: ask("Second: confirm?", "confirm", "boolean") });
      return text(`Got ${String(answer(first).name ?? "")} and ${String(answer(second).name ?? answer(second).confirm ?? "")}.`);
    },
  },
  {
    name: "test_tool_with_task",
    description: "Asks for a name synchronously (MRTR), then works on it as a task.",
    inputSchema: NO_ARGS,
    taskSupport: "required",
    handler: async (_args: Record<string, never>, tools: RequestTools) => {
      const response = tools.inputResponses.user_name;
      if (!response) return tools.inputRequired({ user_name: ask("What is your name?", "name") });
      await pause(200, tools);
      return text(`Finished the work for ${String(answer(response).name ?? "stranger")}.`);
    },
  },
];

export default defineExtension({
  tools: [
    ...taskTools,
    {
      name: "test_sampling",
      description: "Asks the client's model (legacy sampling/createMessage).",
      inputSchema: { type: "object", properties: { prompt: { type: "string" } }, required: ["prompt"] },
      handler: async (args: { prompt: string }, tools) => {
        const result = await tools.clientRequest("sampling/createMessage", { messages: [{ role: "user", content: { type: "text", text: args.prompt } }], maxTokens: 100 });
        return text(`LLM response: ${sampled(result)}`);
      },
    },
    {
      name: "test_elicitation",
      description: "Asks the user (legacy elicitation/create).",
      inputSchema: { type: "object", properties: { message: { type: "string" } }, required: ["message"] },
      handler: async (args: { message: string }, tools) => {
        const result = await tools.clientRequest("elicitation/create", {
          message: args.message,
          requestedSchema: {
            type: "object",
            properties: { username: { type: "string", description: "User's response" }, email: { type: "string", description: "User's email address" } },
            required: ["username", "email"],
          },
        });
        return text(`User response: action=${String(result.action)}, content=${JSON.stringify(result.content ?? {})}`);
      },
    },
    {
      name: "test_elicitation_sep1034_defaults",
      description: "Elicitation with defaults for every primitive type.",
      inputSchema: NO_ARGS,
      handler: async (_args, tools) =>
        elicited(
          "Elicitation completed",
          await tools.clientRequest("elicitation/create", {
            message: "Please review your details",
            requestedSchema: {
              type: "object",
              properties: {
                name: { type: "string", default: "John Doe" },
                age: { type: "integer", default: 30 },
                score: { type: "number", default: 95.5 },
                status: { type: "string", enum: ["active", "inactive", "pending"], default: "active" },
                verified: { type: "boolean", default: true },
              },
            },
          }),
        ),
    },
    {
      name: "test_elicitation_sep1330_enums",
      description: "Elicitation with the five enum schema variants.",
      inputSchema: NO_ARGS,
      handler: async (_args, tools) =>
        elicited(
          "Elicitation completed",
          await tools.clientRequest("elicitation/create", {
            message: "Pick some options",
            requestedSchema: {
              type: "object",
              properties: {
                untitledSingle: { type: "string", enum: ["option1", "option2", "option3"] },
                titledSingle: {
                  type: "string",
                  oneOf: [
                    { const: "value1", title: "First Option" },
                    { const: "value2", title: "Second Option" },
                    { const: "value3", title: "Third Option" },
                  ],
                },
                legacyEnum: { type: "string", enum: ["opt1", "opt2", "opt3"], enumNames: ["Option One", "Option Two", "Option Three"] },
                untitledMulti: { type: "array", items: { type: "string", enum: ["option1", "option2", "option3"] } },
                titledMulti: {
                  type: "array",
                  items: {
                    anyOf: [
                      { const: "value1", title: "First Choice" },
                      { const: "value2", title: "Second Choice" },
                      { const: "value3", title: "Third Choice" },
                    ],
                  },
                },
              },
            },
          }),
        ),
    },
    {
      name: "test_input_required_result_elicitation",
      description: "Asks for the user's name, then greets.",
      inputSchema: NO_ARGS,
      handler: (_args, tools) => {
        const response = tools.inputResponses.user_name;
        if (!response) return tools.inputRequired({ user_name: ask("What is your name?", "name") });
        return text(`Hello, ${String(answer(response).name ?? "stranger")}!`);
      },
    },
    {
      name: "test_input_required_result_sampling",
      description: "Asks the client's model a question.",
      inputSchema: NO_ARGS,
      handler: (_args, tools) => {
        const response = tools.inputResponses.capital_question;
        if (!response) return tools.inputRequired({ capital_question: sample("What is the capital of France?", 100) });
        return text(`The model answered: ${sampled(response)}`);
      },
    },
    {
      name: "test_input_required_result_list_roots",
      description: "Asks for the client's roots.",
      inputSchema: NO_ARGS,
      handler: (_args, tools) => {
        const response = tools.inputResponses.client_roots;
        if (!response) return tools.inputRequired({ client_roots: ROOTS });
        return text(`Roots: ${rootUris(response).join(", ")}`);
      },
    },
    {
      name: "test_input_required_result_request_state",
      description: "Round-trips requestState.",
      inputSchema: NO_ARGS,
      handler: (_args, tools) => {
        const state = tools.state as { step?: string } | undefined;
        if (!tools.inputResponses.confirm || state?.step !== "confirm") {
          return tools.inputRequired({ confirm: ask("Please confirm", "ok", "boolean") }, { step: "confirm" });
        }
        return text("state-ok: the request state came back intact.");
      },
    },
    {
      name: "test_input_required_result_multiple_inputs",
      description: "Asks for three inputs at once.",
      inputSchema: NO_ARGS,
      handler: (_args, tools) => {
        const { user_name, greeting, client_roots } = tools.inputResponses;
        if (!user_name || !greeting || !client_roots || tools.state === undefined) {
          return tools.inputRequired(
            { user_name: ask("What is your name?", "name"), greeting: sample("Generate a greeting", 50), client_roots: ROOTS },
            { step: "all" },
          );
        }
        return text(`${sampled(greeting)} ${String(answer(user_name).name ?? "")} (roots: ${rootUris(client_roots).join(", ")})`);
      },
    },
    {
      name: "test_input_required_result_multi_round",
      description: "Asks twice, carrying state between rounds.",
      inputSchema: NO_ARGS,
      handler: (_args, tools) => {
        const state = tools.state as { round?: number; name?: string } | undefined;
        if (state?.round === 1 && tools.inputResponses.step1) {
          const name = String(answer(tools.inputResponses.step1).name ?? "");
          return tools.inputRequired({ step2: ask("Step 2: What is your favorite color?", "color") }, { round: 2, name });
        }
        if (state?.round === 2 && tools.inputResponses.step2) {
          return text(`${state.name ?? ""} likes ${String(answer(tools.inputResponses.step2).color ?? "")}.`);
        }
        return tools.inputRequired({ step1: ask("Step 1: What is your name?", "name") }, { round: 1 });
      },
    },
    {
      name: "test_input_required_result_tampered_state",
      description: "Rejects tampered requestState (the runtime verifies its HMAC).",
      inputSchema: NO_ARGS,
      handler: (_args, tools) => {
        if (tools.state === undefined || !tools.inputResponses.confirm) {
          return tools.inputRequired({ confirm: ask("Please confirm", "ok", "boolean") }, { issued: true });
        }
        return text("The request state was intact.");
      },
    },
    {
      name: "test_input_required_result_capabilities",
      description: "Only asks for input kinds the client declared.",
      inputSchema: NO_ARGS,
      handler: (_args, tools) => {
        if (Object.keys(tools.inputResponses).length > 0) return text("Thanks for the input.");
        const caps = tools.clientCapabilities;
        const requests: Record<string, InputRequest> = {};
        if (caps.elicitation) requests.user_name = ask("What is your name?", "name");
        if (caps.sampling) requests.greeting = sample("Generate a greeting", 50);
        if (caps.roots) requests.client_roots = ROOTS;
        return Object.keys(requests).length > 0 ? tools.inputRequired(requests) : text("The client declared no input capability.");
      },
    },
    { name: "test_simple_text", description: "Returns a simple text.", inputSchema: NO_ARGS, handler: () => text("This is a simple text response for testing.") },
    {
      name: "test_image_content",
      description: "Returns an image.",
      inputSchema: NO_ARGS,
      handler: () => ({ content: [{ type: "image", data: PNG, mimeType: "image/png" }] }),
    },
    {
      name: "test_audio_content",
      description: "Returns audio.",
      inputSchema: NO_ARGS,
      handler: () => ({ content: [{ type: "audio", data: wav(), mimeType: "audio/wav" }] }),
    },
    {
      name: "test_embedded_resource",
      description: "Returns an embedded resource.",
      inputSchema: NO_ARGS,
      handler: () => ({
        content: [{ type: "resource", resource: { uri: "test://embedded-resource", mimeType: "text/plain", text: "This is an embedded resource content." } }],
      }),
    },
    {
      name: "test_multiple_content_types",
      description: "Returns text, an image and a resource.",
      inputSchema: NO_ARGS,
      handler: () => ({
        content: [
          { type: "text", text: "Multiple content types test:" },
          { type: "image", data: PNG, mimeType: "image/png" },
          { type: "resource", resource: { uri: "test://mixed-content-resource", mimeType: "application/json", text: JSON.stringify({ test: "data", value: 123 }) } },
        ],
      }),
    },
    {
      name: "test_tool_with_logging",
      description: "Sends three log messages while it runs.",
      inputSchema: NO_ARGS,
      handler: async (_args, tools) => {
        tools.log("info", "Tool execution started");
        await pause(50, tools);
        tools.log("info", "Tool processing data");
        await pause(50, tools);
        tools.log("info", "Tool execution completed");
        return text("Logging tool completed.");
      },
    },
    {
      name: "test_logging_tool",
      description: "Logs one message, only when the request asked for log messages.",
      inputSchema: NO_ARGS,
      handler: (_args, tools) => {
        tools.log("info", "test_logging_tool ran");
        return text("Logged (if a log level was requested).");
      },
    },
    {
      name: "test_tool_with_progress",
      description: "Reports progress 0, 50 and 100 of 100.",
      inputSchema: NO_ARGS,
      handler: async (_args, tools) => {
        tools.progress(0, 100);
        await pause(50, tools);
        tools.progress(50, 100);
        await pause(50, tools);
        tools.progress(100, 100);
        return text("Progress tool completed.");
      },
    },
    {
      name: "test_streaming_elicitation",
      description: "Streams progress on its response stream, then answers.",
      inputSchema: NO_ARGS,
      handler: async (_args, tools) => {
        tools.progress(1, 2, "working");
        await pause(20, tools);
        tools.progress(2, 2, "done");
        return text("Streaming tool completed.");
      },
    },
    {
      name: "test_error_handling",
      description: "Always fails.",
      inputSchema: NO_ARGS,
      handler: () => {
        throw new Error("This tool intentionally returns an error for testing");
      },
    },
    {
      name: "test_missing_capability",
      description: "Needs the client's sampling capability.",
      inputSchema: NO_ARGS,
      handler: (_args, tools) => {
        tools.requireClientCapability("sampling");
        return text("The client declared sampling.");
      },
    },
    {
      name: "json_schema_2020_12_tool",
      description: "Tool with JSON Schema 2020-12 features",
      inputSchema: {
        $schema: "https://json-schema.org/draft/2020-12/schema",
        type: "object",
        $defs: { address: { $anchor: "addressDef", type: "object", properties: { street: { type: "string" }, city: { type: "string" } } } },
        properties: {
          name: { type: "string" },
          address: { $ref: "#/$defs/address" },
          contactMethod: { type: "string", enum: ["phone", "email"] },
          phone: { type: "string" },
          email: { type: "string" },
        },
        allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
        if: { properties: { contactMethod: { const: "phone" } }, required: ["contactMethod"] },
        then: { required: ["phone"] },
        else: { required: ["email"] },
        additionalProperties: false,
      },
      handler: (args) => text(`Received ${JSON.stringify(args)}`),
    },
  ],
  resources: [
    {
      uri: "test://static-text",
      name: "static-text",
      description: "A static text resource.",
      mimeType: "text/plain",
      read: () => [{ uri: "test://static-text", mimeType: "text/plain", text: "This is the content of the static text resource." }],
    },
    {
      uri: "test://static-binary",
      name: "static-binary",
      description: "A static binary resource.",
      mimeType: "image/png",
      read: () => [{ uri: "test://static-binary", mimeType: "image/png", blob: PNG }],
    },
    {
      uri: "test://watched-resource",
      name: "watched-resource",
      description: "A resource clients may subscribe to.",
      mimeType: "text/plain",
      read: () => [{ uri: "test://watched-resource", mimeType: "text/plain", text: "Watched resource content." }],
    },
  ],
  resourceTemplates: [
    {
      uriTemplate: "test://template/{id}/data",
      name: "template-data",
      description: "Data for one id.",
      mimeType: "application/json",
      read: (uri, { id }) => [{ uri, mimeType: "application/json", text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }) }],
      complete: (variable, prefix) => (variable === "id" ? ["1", "2", "3", "123"].filter((v) => v.startsWith(prefix)) : []),
    },
  ],
  prompts: [
    {
      name: "test_input_required_result_prompt",
      description: "A prompt that first asks for context.",
      get: (_args, tools) => {
        const response = tools.inputResponses.user_context;
        if (!response) return tools.inputRequired({ user_context: ask("What context should the prompt use?", "context") });
        return { messages: [{ role: "user", content: { type: "text", text: `Use this context: ${String(answer(response).context ?? "")}` } }] };
      },
    },
    {
      name: "test_simple_prompt",
      description: "A prompt without arguments.",
      get: () => ({ messages: [{ role: "user", content: { type: "text", text: "This is a simple prompt for testing." } }] }),
    },
    {
      name: "test_prompt_with_arguments",
      description: "A prompt with two arguments.",
      arguments: [
        { name: "arg1", description: "First test argument", required: true },
        { name: "arg2", description: "Second test argument", required: true },
      ],
      get: ({ arg1, arg2 }) => ({ messages: [{ role: "user", content: { type: "text", text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` } }] }),
      complete: (_argument, prefix) => ["paris", "park", "party"].filter((v) => v.startsWith(prefix)),
    },
    {
      name: "test_prompt_with_embedded_resource",
      description: "A prompt embedding a resource.",
      arguments: [{ name: "resourceUri", description: "URI of the resource to embed", required: true }],
      get: ({ resourceUri }) => ({
        messages: [
          { role: "user", content: { type: "resource", resource: { uri: resourceUri, mimeType: "text/plain", text: "Embedded resource content for testing." } } },
          { role: "user", content: { type: "text", text: "Please process the embedded resource above." } },
        ],
      }),
    },
    {
      name: "test_prompt_with_image",
      description: "A prompt with an image.",
      get: () => ({
        messages: [
          { role: "user", content: { type: "image", data: PNG, mimeType: "image/png" } },
          { role: "user", content: { type: "text", text: "Please analyze the image above." } },
        ],
      }),
    },
  ],
});
