/** The logging level (`logging/setLevel`) and resources (list, read, templates, not-found), when declared. */
import { describeReply, errorCode, fail, isObject, pass, skip, type CheckDefinition } from "./check-types.js";

export const loggingLevel: CheckDefinition = {
  id: "logging-level",
  weight: 5,
  async run({ connection, capabilities }) {
    if (!capabilities) return fail("no capabilities: initialize failed");
    if (!isObject(capabilities.logging)) return skip("the server does not declare logging");
    const set = await connection.request("logging/setLevel", { level: "warning" });
    if (!isObject(set.message?.result))
      return fail(`logging/setLevel "warning" got ${describeReply(set)}, not an empty result`);
    const bad = await connection.request("logging/setLevel", { level: "mcp-gen-check-no-such-level" });
    if (errorCode(bad) !== -32602)
      return fail(`logging/setLevel with an unknown level got ${describeReply(bad)}, not -32602`);
    return pass("logging/setLevel takes an RFC 5424 level and refuses an unknown one with -32602");
  },
};

export const resources: CheckDefinition = {
  id: "resources",
  weight: 5,
  async run({ connection, capabilities }) {
    if (!capabilities) return fail("no capabilities: initialize failed");
    if (!isObject(capabilities.resources)) return skip("the server does not declare resources");
    const problems: string[] = [];
    const list = await connection.request("resources/list", {});
    const listed = list.message?.result?.resources;
    if (!Array.isArray(listed)) return fail(`resources/list got ${describeReply(list)}, not a resources array`);
    const malformed = listed.filter((r) => !isObject(r) || typeof r.uri !== "string" || typeof r.name !== "string");
    if (malformed.length > 0) problems.push(`${malformed.length} listed resource(s) without uri and name`);
    const first = listed.find((r): r is { uri: string } => isObject(r) && typeof r.uri === "string");
    if (first) {
      const read = await connection.request("resources/read", { uri: first.uri });
      const contents = read.message?.result?.contents;
      if (!Array.isArray(contents) || contents.length === 0)
        problems.push(`resources/read ${first.uri} got ${describeReply(read)}, no contents`);
      else if (
        !isObject(contents[0]) ||
        contents[0].uri !== first.uri ||
        (typeof contents[0].text !== "string" && typeof contents[0].blob !== "string")
      )
        problems.push(`resources/read ${first.uri}: the first content lacks the uri or text/blob`);
    }
    const templates = await connection.request("resources/templates/list", {});
    if (!Array.isArray(templates.message?.result?.resourceTemplates))
      problems.push(`resources/templates/list got ${describeReply(templates)}`);
    const missing = await connection.request("resources/read", { uri: "mcp-gen-check://no-such-resource" });
    // -32002 in the legacy era, -32602 from 2026-07-28 (SEP-2164); never empty contents.
    const code = errorCode(missing);
    if (code !== -32002 && code !== -32602)
      problems.push(`reading an unknown resource got ${describeReply(missing)}, not -32002 or -32602`);
    return problems.length > 0
      ? fail(problems.join("; "))
      : pass(
          `${listed.length} resource(s) listed${first ? `, ${first.uri} read` : ""}; templates listed; an unknown resource is error ${code}`,
        );
  },
};
