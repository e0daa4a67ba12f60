/**
 * Dependencies loaded on first use, not at start: got (upstream and OAuth requests), p-queue (the
 * upstream queue, with its two dependencies) and jose (JWT checks in OAuth resource-server mode). A server that has not called anything yet starts
 * faster and idles with less memory; a stdio server never loads jose at all.
 */
let gotModule: Promise<typeof import("got")> | undefined;
let joseModule: Promise<typeof import("jose")> | undefined;
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

/** The jose module, imported once. */
export function loadJose(): Promise<typeof import("jose")> {
  return (joseModule ??= import("jose"));
}

/** The p-queue module, imported once. */
export function loadPQueue(): Promise<typeof import("p-queue")> {
  return (pQueueModule ??= import("p-queue"));
}
