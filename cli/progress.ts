/** Progress of a generation on stderr: a spinner on a terminal, plain lines for slow stages otherwise. */
export interface Progress {
  /** A stage finished. */
  stage(name: string, ms: number): void;
  /** Stops the spinner and clears its line. */
  stop(): void;
}

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
/** Without a terminal, a stage is reported only when it took at least this long (or with --verbose). */
const SLOW_MS = 1000;
/** What each stage did, for the line a slow one prints (a stage's name alone says little: "custom done"). */
const DONE: Record<string, string> = {
  load: "read the spec",
  ir: "built the model of the API",
  plan: "planned the tools",
  emit: "wrote the project's files in memory",
  format: "formatted the files",
  validate: "validated the spec",
  typescript: "printed the TypeScript",
  custom: "type-checked src/custom/ against the new types",
  write: "wrote the output folder",
  check: "compared with the output folder",
};

/** Creates the progress reporter for one run; silent when `quiet`. */
export function createProgress(options: { quiet: boolean; verbose: boolean; stream?: NodeJS.WriteStream }): Progress {
  const stream = options.stream ?? process.stderr;
  if (options.quiet) return { stage: () => undefined, stop: () => undefined };
  const timing = (name: string, ms: number) => `  ${name.padEnd(7)} ${ms.toFixed(1).padStart(8)} ms\n`;
  if (!stream.isTTY) {
    return {
      stage: (name, ms) => {
        if (options.verbose) stream.write(timing(name, ms));
        else if (ms >= SLOW_MS) stream.write(`mcp-gen: ${DONE[name] ?? `${name} done`} (${Math.round(ms)} ms)\n`);
      },
      stop: () => undefined,
    };
  }
  let frame = 0;
  let label = "loading the spec";
  const next: Record<string, string> = {
    load: "building the model",
    ir: "planning tools",
    plan: "emitting files",
    emit: "formatting",
    format: "validating the spec",
    validate: "printing the TypeScript",
    typescript: "writing",
    custom: "writing",
    write: "done",
    check: "done",
  };
  const draw = () => stream.write(`\r\u001b[2K${FRAMES[frame++ % FRAMES.length]} ${label}…`);
  const timer = setInterval(draw, 80);
  timer.unref();
  draw();
  return {
    stage: (name, ms) => {
      label = next[name] ?? name;
      if (options.verbose) stream.write(`\r\u001b[2K${timing(name, ms)}`);
      draw();
    },
    stop: () => {
      clearInterval(timer);
      stream.write("\r\u001b[2K");
    },
  };
}
