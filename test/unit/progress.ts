import { test } from "uvu";
import * as assert from "uvu/assert";
import { createProgress } from "../../cli/progress.js";

function stream(isTTY: boolean): NodeJS.WriteStream & { text: string } {
  const fake = {
    isTTY,
    text: "",
    write(chunk: string) {
      fake.text += chunk;
      return true;
    },
  };
  return fake as unknown as NodeJS.WriteStream & { text: string };
}

test("without a terminal: plain lines for slow stages only, every stage with --verbose, nothing when quiet", () => {
  const plain = stream(false);
  const p = createProgress({ quiet: false, verbose: false, stream: plain });
  p.stage("load", 12);
  p.stage("format", 1500);
  p.stage("custom", 2000);
  p.stage("someday", 1000);
  p.stop();
  assert.is(
    plain.text,
    "mcp-gen: formatted the files (1500 ms)\nmcp-gen: type-checked src/custom/ against the new types (2000 ms)\n" +
      "mcp-gen: someday done (1000 ms)\n",
  );
  const verbose = stream(false);
  createProgress({ quiet: false, verbose: true, stream: verbose }).stage("load", 12.34);
  assert.match(verbose.text, /load\s+12\.3 ms/);
  const quiet = stream(true);
  createProgress({ quiet: true, verbose: true, stream: quiet }).stage("load", 5000);
  assert.is(quiet.text, "");
});

test("on a terminal: a spinner line that is cleared at the end", () => {
  const tty = stream(true);
  const p = createProgress({ quiet: false, verbose: false, stream: tty });
  p.stage("load", 1);
  p.stop();
  assert.match(tty.text, /building the model…/);
  assert.ok(tty.text.endsWith("\r\u001b[2K"));
});

test.run();
