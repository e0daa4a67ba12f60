/**
 * Lifecycle in both eras: the modern era's `server/discover`, its version error and per-request
 * `_meta` rules (2026-07-28), then the legacy `initialize` handshake (2025-11-25), `ping`, and a
 * clean stdout on stdio.
 */
import { HttpConnection, LEGACY_VERSION, META, MODERN_VERSION, modernParams } from "./connection.js";
import { describeReply, errorCode, fail, isObject, pass, skip, type CheckDefinition } from "./check-types.js";

/** What a complete modern result must carry (SEP-2549 caching hints and `resultType`); the problems found. */
function completeResultProblems(result: Record<string, unknown>): string[] {
  const problems: string[] = [];
  if (result.resultType !== "complete")
    problems.push(`resultType is ${JSON.stringify(result.resultType)}, not "complete"`);
  if (!Number.isInteger(result.ttlMs) || (result.ttlMs as number) < 0)
    problems.push(`ttlMs is ${JSON.stringify(result.ttlMs)}, not an integer ≥ 0`);
  if (result.cacheScope !== "public" && result.cacheScope !== "private")
    problems.push(`cacheScope is ${JSON.stringify(result.cacheScope)}, not "public" or "private"`);
  return problems;
}

export const discover: CheckDefinition = {
  id: "lifecycle-discover",
  weight: 10,
  async run({ connection }) {
    const reply = await connection.request("server/discover", modernParams());
    const result = reply.message?.result;
    if (!isObject(result)) return fail(`server/discover (${MODERN_VERSION}) did not succeed: ${describeReply(reply)}`);
    const problems = completeResultProblems(result);
    const versions = result.supportedVersions;
    if (!Array.isArray(versions) || !versions.includes(MODERN_VERSION))
      problems.push(`supportedVersions ${JSON.stringify(versions)} lacks ${MODERN_VERSION}`);
    if (!isObject(result.capabilities)) problems.push("no capabilities object");
    const info = isObject(result._meta) ? result._meta[META.serverInfo] : undefined;
    if (!isObject(info) || typeof info.name !== "string") problems.push(`_meta["${META.serverInfo}"] has no name`);
    if (problems.length > 0) return fail(`server/discover: ${problems.join("; ")}`);
    return pass(
      `server/discover lists ${(versions as unknown[]).length} versions, capabilities ${Object.keys(result.capabilities as object).join(", ") || "none"}`,
    );
  },
};

export const modernVersion: CheckDefinition = {
  id: "modern-unsupported-version",
  weight: 5,
  async run({ connection }) {
    const requested = "1900-01-01";
    const reply = await connection.request("server/discover", modernParams({}, requested));
    const data = reply.message?.error?.data;
    const problems: string[] = [];
    if (errorCode(reply) !== -32022) problems.push(`expected error -32022, got ${describeReply(reply)}`);
    else if (!isObject(data) || !Array.isArray(data.supported) || data.requested !== requested)
      problems.push(`error data ${JSON.stringify(data)} lacks supported[] and requested`);
    if (reply.status !== undefined && reply.status !== 400) problems.push(`HTTP status ${reply.status}, not 400`);
    return problems.length > 0
      ? fail(`a request for version ${requested}: ${problems.join("; ")}`)
      : pass(`version ${requested} refused with -32022 naming the supported versions`);
  },
};

export const modernRequests: CheckDefinition = {
  id: "modern-requests",
  weight: 5,
  async run({ connection }) {
    const listed = await connection.request("tools/list", modernParams());
    const result = listed.message?.result;
    if (!isObject(result))
      return fail(`tools/list with ${MODERN_VERSION} _meta did not succeed: ${describeReply(listed)}`);
    const problems = completeResultProblems(result);
    // A modern request without the client's capabilities is malformed: -32602 (HTTP 400).
    const params = modernParams();
    delete (params._meta as Record<string, unknown>)[META.clientCapabilities];
    const missing = await connection.request("tools/list", params);
    if (errorCode(missing) !== -32602)
      problems.push(`a request without ${META.clientCapabilities} got ${describeReply(missing)}, not -32602`);
    else if (missing.status !== undefined && missing.status !== 400)
      problems.push(`a request without ${META.clientCapabilities} got HTTP ${missing.status}, not 400`);
    return problems.length > 0
      ? fail(`modern requests: ${problems.join("; ")}`)
      : pass("modern results carry resultType and caching hints; malformed _meta is refused with -32602");
  },
};

export const initialize: CheckDefinition = {
  id: "lifecycle-initialize",
  weight: 10,
  async run(context) {
    const { connection } = context;
    const reply = await connection.request("initialize", {
      protocolVersion: LEGACY_VERSION,
      capabilities: {},
      clientInfo: { name: "mcp-gen-check", version: "1" },
    });
    const result = reply.message?.result;
    if (!isObject(result)) return fail(`initialize (${LEGACY_VERSION}) did not succeed: ${describeReply(reply)}`);
    const problems: string[] = [];
    if (result.protocolVersion !== LEGACY_VERSION)
      problems.push(
        `protocolVersion ${JSON.stringify(result.protocolVersion)} instead of the requested ${LEGACY_VERSION}, which it supports`,
      );
    if (!isObject(result.capabilities)) problems.push("no capabilities object");
    const info = result.serverInfo;
    if (!isObject(info) || typeof info.name !== "string" || typeof info.version !== "string")
      problems.push("serverInfo lacks name or version");
    if (isObject(result.capabilities)) context.capabilities = result.capabilities;
    if (isObject(info)) context.serverInfo = info;
    // Later legacy requests over HTTP carry the negotiated version.
    if (connection instanceof HttpConnection && typeof result.protocolVersion === "string")
      connection.negotiated = result.protocolVersion;
    const initialized = await connection.notify("notifications/initialized");
    // Streamable HTTP: an accepted notification is answered 202 with no body.
    if (initialized.status !== undefined && initialized.status !== 202)
      problems.push(`notifications/initialized got HTTP ${initialized.status}, not 202`);
    return problems.length > 0
      ? fail(`initialize: ${problems.join("; ")}`)
      : pass(
          `initialize negotiated ${LEGACY_VERSION} with ${String((info as Record<string, unknown>).name)} ${String((info as Record<string, unknown>).version)}`,
        );
  },
};

export const ping: CheckDefinition = {
  id: "ping",
  weight: 5,
  async run({ connection }) {
    const started = performance.now();
    const reply = await connection.request("ping", {});
    const ms = Math.round(performance.now() - started);
    const result = reply.message?.result;
    if (!isObject(result) || Object.keys(result).some((key) => key !== "_meta"))
      return fail(`ping did not get an empty result: ${describeReply(reply)}`);
    return pass(`ping answered with an empty result in ${ms} ms`);
  },
};

export const stdioClean: CheckDefinition = {
  id: "stdio-clean",
  weight: 5,
  transport: "stdio",
  async run({ stdio }) {
    if (!stdio) return skip("not a stdio server");
    const problems: string[] = [];
    if (stdio.strayStdout.length > 0)
      problems.push(
        `${stdio.strayStdout.length} line(s) on stdout that are not JSON-RPC messages, first: ${JSON.stringify(stdio.strayStdout[0]!.slice(0, 100))}`,
      );
    if (stdio.serverRequests.length > 0)
      problems.push(
        `${stdio.serverRequests.length} request(s) to a client that declared no capabilities (${stdio.serverRequests.map((m) => m.method).join(", ")})`,
      );
    return problems.length > 0
      ? fail(problems.join("; "))
      : pass("stdout carried only JSON-RPC messages, and no request needing an undeclared client capability");
  },
};
