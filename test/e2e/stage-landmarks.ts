/**
 * The landmarks of `npm run profile:stages` (scripts/stage-landmarks.js) against today's code: the
 * petstore example built as the profile builds it (scripts/bench-parts.js: tsc, then the project's
 * esbuild bundle), each anchor found exactly once in its dist/index.js, and the patched copy run for
 * real: one getPet call records every landmark, in the order of the call path. The got floor's
 * landmarks likewise. A change that moves an anchor (as the stdio transport's own line splitter did)
 * fails here, not in the next profile.
 *
 * Tier: end-to-end (npm test only, not npm run test:unit). Needs a tsc build and the esbuild bundle of
 * the petstore example (~10 s).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { repoRoot } from "../support/e2e.js";

interface Landmark {
  label: string;
  after?: string;
  before?: string;
  replace?: string;
}
interface Peer {
  child: import("node:child_process").ChildProcess;
  request(method: string, params: unknown): Promise<unknown>;
  stop(): void;
}
interface BenchParts {
  buildPetstore(checkout: string, work: string, name: string): Promise<string>;
  writeFloor(work: string, name: string): string;
  startUpstream(): Promise<{ upstream: import("node:http").Server; baseUrl: string }>;
  startPeer(args: string[], command: string, env: Record<string, string>): Peer;
  INITIALIZE: unknown;
  getPet(peer: Peer): Promise<unknown>;
}
interface StageLandmarks {
  LANDMARKS: Landmark[];
  FLOOR_LANDMARKS: Landmark[];
  occurrences(text: string, anchor: string): number;
  instrument(source: string, landmarks: Landmark[]): string;
}

const script = async <T>(name: string): Promise<T> =>
  (await import(pathToFileURL(join(repoRoot, "scripts", name)).href)) as T;
const work = mkdtempSync(join(tmpdir(), "mcp-gen-stages-"));
const anchorOf = (landmark: Landmark): string => landmark.after ?? landmark.before ?? landmark.replace ?? "";

/** The labels one getPet call records in a patched server (or floor) started with `args` and the upstream's URL, in order. */
async function recordedLabels(parts: BenchParts, args: string[], file: string): Promise<string[]> {
  const { upstream, baseUrl } = await parts.startUpstream();
  const peer = parts.startPeer([...args, baseUrl], process.execPath, { STAGES_FILE: file });
  try {
    await peer.request("initialize", parts.INITIALIZE);
    peer.child.stdin!.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n");
    const called = (await parts.getPet(peer)) as { result?: { isError?: boolean } };
    assert.ok(called.result && !called.result.isError, JSON.stringify(called));
    const exited = new Promise((resolve) => peer.child.once("exit", resolve));
    peer.stop();
    await exited;
  } finally {
    upstream.close();
  }
  const calls = JSON.parse(readFileSync(file, "utf8")) as Array<Array<[string, number]>>;
  // initialize is recorded too (read, dispatch, write); the call is the last.
  return (calls.at(-1) ?? []).map(([label]) => label);
}

test("every landmark occurs once in the petstore bundle and the got floor, and a call records them all in order", async () => {
  const parts = await script<BenchParts>("bench-parts.js");
  const { LANDMARKS, FLOOR_LANDMARKS, occurrences, instrument } = await script<StageLandmarks>("stage-landmarks.js");
  const built = await parts.buildPetstore(repoRoot, work, "petstore");
  const entry = join(built, "dist", "index.js");
  const floor = parts.writeFloor(work, "got");
  for (const [file, landmarks] of [
    [entry, LANDMARKS],
    [floor, FLOOR_LANDMARKS],
  ] as const) {
    const source = readFileSync(file, "utf8");
    for (const landmark of landmarks)
      assert.is(occurrences(source, anchorOf(landmark)), 1, `${landmark.label}: ${JSON.stringify(anchorOf(landmark))}`);
    writeFileSync(file, instrument(source, landmarks));
  }
  const labels = (landmarks: Landmark[]) => landmarks.map((landmark) => landmark.label);
  assert.equal(await recordedLabels(parts, [entry, "--base-url"], join(work, "server.json")), labels(LANDMARKS));
  assert.equal(await recordedLabels(parts, [floor], join(work, "floor.json")), labels(FLOOR_LANDMARKS));
});

test.after(() => rmSync(work, { recursive: true, force: true }));

test.run();
