// Preloaded (node --expose-gc --import) into the server of npm run bench:http's idle-sessions step: on SIGUSR2 it
// collects garbage and writes the process's memory (process.memoryUsage(), bytes) on stderr as one line
// "bench-memory <JSON>". The server itself is unchanged.
process.on("SIGUSR2", () => {
  globalThis.gc?.();
  globalThis.gc?.();
  process.stderr.write(`bench-memory ${JSON.stringify(process.memoryUsage())}\n`);
});
