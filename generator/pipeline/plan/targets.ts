/**
 * Where a generated server runs (`--target`, repeatable, remembered; default node): Node (stdio or
 * its own HTTP server), or a platform that serves Web-standard fetch events (Cloudflare Workers,
 * Deno, Bun, AWS Lambda), which vendors the runtime's feature `fetch`. Each target adds only its
 * entry file, deploy files and `dev:<target>` script (emit/targets/). A feature a target cannot
 * carry is refused here, before anything is written.
 */

/** Every target, in the order `--help` lists them. */
export const TARGET_NAMES = ["node", "worker", "deno", "bun", "lambda"] as const;
/** A target's name. */
export type TargetName = (typeof TARGET_NAMES)[number];

/** The target of a project that names none. */
export const DEFAULT_TARGETS: readonly TargetName[] = ["node"];

/**
 * What the fetch handler of a long-running platform process (Deno, Bun; Lambda too) cannot carry:
 * the parts plugged into the Node server's own node:http transport.
 */
const HTTP_SERVER_FEATURES: Readonly<Record<string, string>> = {
  sessions: "legacy sessions are kept by the Node server's HTTP transport; the fetch handler is stateless",
  redis: "Redis carries sessions between instances (it requires feature sessions, which the fetch handler has not)",
  "legacy-sse": "the HTTP+SSE transport is served by the Node server's node:http endpoints",
  "user-oauth": "per-user sign-in serves its own pages on the Node server's node:http endpoints",
  oauth: "the resource server's guard is plugged into node:http's router",
};

/**
 * The runtime features each fetch target cannot carry, and why: a feature the project has that is
 * listed here stops the generation (MG207). Node carries every feature.
 */
export const TARGET_REFUSALS: Readonly<Record<TargetName, Readonly<Record<string, string>>>> = {
  node: {},
  worker: {
    code: "execute_code runs scripts in a worker thread (node:worker_threads), which Workers do not have",
    redis: "a Worker cannot hold a TCP connection to Redis across requests; each request is stateless",
    sessions: "legacy sessions need state shared by every request, which a Worker instance does not keep",
    "legacy-sse": "the HTTP+SSE transport keeps a stream open per client across requests",
    "user-oauth": "per-user sign-in keeps tokens between requests and serves its own pages on node:http",
    oauth: "the resource server's guard is plugged into node:http's router",
    otel: "the OpenTelemetry SDK exporters need Node",
    "rate-limit": "inbound rate limits count in one process's memory; a Worker has many short-lived instances",
    tasks: "a task outlives its request, which a Worker invocation does not",
    "client-requests": "server→client requests wait for an answer on another request of the same session",
    confirm: "confirmations are server→client requests (see client-requests)",
  },
  deno: HTTP_SERVER_FEATURES,
  bun: HTTP_SERVER_FEATURES,
  lambda: {
    ...HTTP_SERVER_FEATURES,
    tasks: "a task outlives its request, and Lambda freezes the instance once the answer is returned",
    "rate-limit": "inbound rate limits count in one instance's memory; Lambda runs many, one request each at a time",
  },
};

/** The runtime feature every target but node needs. */
export const FETCH_FEATURE = "fetch";

/** The runtime features of targets (vendored for them, plugged by their entries only, never by another's). */
export const TARGET_FEATURES: readonly string[] = [FETCH_FEATURE, "lambda"];

/** The runtime features a project with `targets` vendors for them. */
export function featuresOfTargets(targets: readonly TargetName[]): string[] {
  const features = targets.some((target) => target !== "node") ? [FETCH_FEATURE] : [];
  return targets.includes("lambda") ? [...features, "lambda"] : features;
}

/** Whether `name` is a target. */
export function isTargetName(name: string): name is TargetName {
  return (TARGET_NAMES as readonly string[]).includes(name);
}

/** The targets asked for, known ones only, in TARGET_NAMES order; node when none is. */
export function chosenTargets(asked: readonly string[] | undefined): TargetName[] {
  const known = TARGET_NAMES.filter((name) => asked?.includes(name));
  return known.length > 0 ? known : [...DEFAULT_TARGETS];
}

/** Each refusal of `features` by one of `targets`: the target, the feature and why. */
export function targetRefusals(
  targets: readonly TargetName[],
  features: readonly string[],
): Array<{ target: TargetName; feature: string; why: string }> {
  return targets.flatMap((target) =>
    features
      .filter((feature) => Object.hasOwn(TARGET_REFUSALS[target], feature))
      .map((feature) => ({ target, feature, why: TARGET_REFUSALS[target][feature]! })),
  );
}
