// @mcp-gen/runtime 0.1.0, vendored by mcp-gen. Do not edit: changes are lost when the server is regenerated.
/**
 * Dependencies loaded on first use, not at start: got (upstream and OAuth requests) and p-queue (the
 * upstream queue, with its two dependencies). A server that has not called anything yet starts
 * faster and idles with less memory.
 */
let gotModule: Promise<typeof import("got")> | undefined;
let pQueueModule: Promise<typeof import("p-queue")> | undefined;

let gotLoaded: typeof import("got") | undefined;

/** The got module, imported once. */
export function loadGot(): Promise<typeof import("got")> {
  return (gotModule ??= import("got").then((module) => (gotLoaded = module)));
}

/** The got module if it has been imported already: callers on the per-call path skip an await. */
export function loadedGot(): typeof import("got") | undefined {
  return gotLoaded;
}

/** The p-queue module, imported once. */
export function loadPQueue(): Promise<typeof import("p-queue")> {
  return (pQueueModule ??= import("p-queue"));
}
