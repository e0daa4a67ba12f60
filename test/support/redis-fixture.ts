/**
 * A real redis-server for tests (Debian package, installed by scripts/setup-scale.js when
 * missing): started on a free loopback port without persistence, stoppable and restartable on
 * the same port (Redis-down tests), with a MONITOR tap that records every command it receives.
 * No tests here.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createConnection, createServer, type Socket } from "node:net";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

/** redis-server and nginx paths, installing the Debian packages first when missing. */
export async function scaleBinaries(): Promise<{ redis: string; nginx: string }> {
  const setup = (await import(join(root, "scripts", "setup-scale.js"))) as {
    setupScale(): { redis: string; nginx: string };
  };
  return setup.setupScale();
}

/** A free TCP port on 127.0.0.1 (bound once, then released). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface RedisHandle {
  url: string;
  port: number;
  /** Stops the server (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
  /** Starts recording every command Redis receives; `text()` returns what was recorded. */
  monitor(): Promise<{ text(): string; close(): void }>;
}

/** Starts redis-server on a free loopback port; resolves once it accepts connections. */
export async function startRedis(binary: string): Promise<RedisHandle> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async (): Promise<void> => {
    const started = spawn(
      binary,
      [
        "--port",
        String(port),
        "--bind",
        "127.0.0.1",
        "--save",
        "",
        "--appendonly",
        "no",
        "--protected-mode",
        "yes",
        "--loglevel",
        "warning",
      ],
      {
        stdio: ["ignore", "ignore", "inherit"],
      },
    );
    child = started;
    // Never outlive the test process, even when it ends early (a failed assertion, a crash).
    const reap = (): void => void started.kill("SIGKILL");
    process.once("exit", reap);
    started.once("exit", () => process.off("exit", reap));
    for (let i = 0; i < 100; i++) {
      if (await ping(port)) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`redis-server did not start on port ${port}`);
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}/0`,
    port,
    start,
    async stop() {
      const running = child;
      if (!running || running.exitCode !== null) return;
      running.kill("SIGTERM");
      await once(running, "exit");
    },
    async monitor() {
      const socket = createConnection(port, "127.0.0.1");
      await once(socket, "connect");
      let recorded = "";
      socket.on("data", (chunk: Buffer) => (recorded += chunk.toString("utf8")));
      socket.write("MONITOR\r\n");
      await waitFor(() => recorded.includes("+OK"));
      return { text: () => recorded, close: () => socket.destroy() };
    },
  };
}

/** True when a Redis on `port` answers PING. */
async function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket: Socket = createConnection(port, "127.0.0.1");
    const done = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.once("error", () => done(false));
    socket.once("connect", () => socket.write("PING\r\n"));
    socket.once("data", (chunk: Buffer) => done(chunk.toString().startsWith("+PONG")));
    setTimeout(() => done(false), 500).unref();
  });
}

/** Polls `condition` every 20 ms for up to `ms` (default 3 s). */
export async function waitFor(condition: () => boolean | Promise<boolean>, ms = 3_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
