// The landmarks of scripts/profile-stages.js: where it writes timestamps into a copy of the petstore
// server's bundle (dist/index.js after `npm run build`) and into the got floor of scripts/bench-parts.js.
// Anchors are text of the bundle, not of runtime/src: esbuild's output of tsc's output (types gone,
// one statement a line). A change that moves one updates it here; test/e2e/stage-landmarks.ts checks
// every anchor against today's bundle, so the profile does not break unnoticed.

/** A statement that records `label` at the current time. */
const mark = (label) => `globalThis.__stages?.push(["${label}", performance.now()]);`;

/**
 * Landmarks in the bundled dist/index.js: `before` puts the timestamp before the text, `after` after the
 * line that holds it (a function's first line), `replace` swaps the text for `code`. Each text must
 * occur exactly once.
 */
export const LANDMARKS = [
  {
    // The stdio transport's line splitter hands over one complete line (runtime/src/transport/stdio.ts).
    label: "line read",
    after: "this.splitter = new LineSplitter(this.maxLineBytes, (line) => {",
    code: 'globalThis.__stages = [["line read", performance.now()]];',
  },
  { label: "dispatched", after: "async handleRequest(request, ctx) {" },
  { label: "handler called", before: "const result = await handler(" },
  { label: "tools/call", after: "callTool(params, call) {" },
  { label: "operation", after: "async callOperation(name, args, context) {" },
  // callOperation's first step (admit) has checked the arguments; sign-in and the gate come next.
  { label: "arguments validated", before: "const { userSignIn, gate } = this.options;" },
  { label: "gate and hooks", before: "channel.progress(params, call, 0, 1, " },
  { label: "upstream call", after: "async function callUpstream(tool, args, call) {" },
  { label: "request built", before: "const exchange = () => exchangeWithUpstream(" },
  { label: "exchange", after: "async function exchangeWithUpstream(" },
  { label: "send", after: "function send(client, prepared, authorize, call, limits, template) {" },
  { label: "got called", before: "const pending = upstreamClient(" },
  {
    label: "got responded",
    replace: "(response) => (settled(), response),",
    code: `(response) => { settled(); ${mark("got responded")} return response; },`,
  },
  { label: "result mapped", before: "if (tool.http.pagination && call.paging && !result.isError)" },
  {
    label: "response written",
    before: 'if (!this.output.writable || this.output.write(JSON.stringify(message) + "\\n")',
    code: `${mark("response written")} if (globalThis.__stages?.length > 2) globalThis.__calls.push(globalThis.__stages); globalThis.__stages = undefined;`,
  },
];

/** The same landmarks in the got floor of npm run bench (bench-parts.js writes it): read, got call, got response, write. */
export const FLOOR_LANDMARKS = [
  { label: "line read", after: '.on("line", async (line) => {', code: LANDMARKS[0].code },
  { label: "got called", before: "const text = " },
  { label: "got responded", after: "const text = " },
  {
    label: "response written",
    before: 'process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: msg.id, result: { content',
    code: LANDMARKS.at(-1).code,
  },
];

/** How many times `anchor` occurs in `text` (overlaps counted once each start). */
export function occurrences(text, anchor) {
  let count = 0;
  for (let at = text.indexOf(anchor); at >= 0 && count < 2; at = text.indexOf(anchor, at + 1)) count++;
  return count;
}

/** `source` with the landmarks' timestamps and a SIGTERM handler that writes them to $STAGES_FILE. */
export function instrument(source, landmarks) {
  let text = source;
  for (const landmark of landmarks) {
    const anchor = landmark.after ?? landmark.before ?? landmark.replace;
    if (occurrences(text, anchor) !== 1)
      throw new Error(`landmark "${landmark.label}": ${JSON.stringify(anchor)} does not occur exactly once`);
    const at = text.indexOf(anchor);
    const code = landmark.code ?? mark(landmark.label);
    if (landmark.before) text = `${text.slice(0, at)}${code}\n${text.slice(at)}`;
    else if (landmark.replace) text = `${text.slice(0, at)}${code}${text.slice(at + anchor.length)}`;
    else {
      const end = text.indexOf("\n", at);
      text = `${text.slice(0, end + 1)}${code}\n${text.slice(end + 1)}`;
    }
  }
  const flush =
    'globalThis.__calls = []; process.on("SIGTERM", () => { process.getBuiltinModule("node:fs").writeFileSync(' +
    "process.env.STAGES_FILE, JSON.stringify(globalThis.__calls)); process.exit(0); });";
  // After the bundle's shebang line, which must stay first.
  const shebang = text.startsWith("#!") ? text.slice(0, text.indexOf("\n") + 1) : "";
  return `${shebang}${flush}\n${text.slice(shebang.length)}`;
}
