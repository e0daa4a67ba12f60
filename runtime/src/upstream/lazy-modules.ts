/**
 * got, loaded on the first upstream (or OAuth) request, not at start: a server that has not called
 * anything yet starts faster and idles with less memory.
 */
let gotModule: Promise<typeof import("got")> | undefined;

let gotLoaded: typeof import("got") | undefined;

/** The got module, imported once. */
export function loadGot(): Promise<typeof import("got")> {
  return (gotModule ??= import("got").then((module) => (gotLoaded = module)));
}

/** The got module if it has been imported already: callers on the per-call path skip an await. */
export function loadedGot(): typeof import("got") | undefined {
  return gotLoaded;
}
