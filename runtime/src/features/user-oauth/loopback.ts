/**
 * stdio's sign-in pages: a listener on 127.0.0.1 started with the first sign-in (as `gh auth login`
 * does), at the port of `--public-url` when given (so the redirect URI can be registered exactly),
 * else a free one (authorization servers accept any port of a loopback redirect URI, RFC 8252 §7.3).
 * It never keeps the process alive.
 */
import { createServer } from "node:http";
import { CALLBACK_PATH, isSignInPath, serveSignInPage, type PagesContext } from "./pages.js";

/** A loopback listener for the sign-in pages. */
export class LoopbackPages {
  private listening: Promise<string> | undefined;
  private origin: string | undefined;

  /** `port` 0 picks a free one. */
  constructor(
    private readonly port: number,
    private readonly context: Omit<PagesContext, "redirectUri">,
  ) {}

  /** The origin it listens at (`http://127.0.0.1:<port>`), starting it the first time. */
  ready(): Promise<string> {
    this.listening ??= new Promise<string>((resolve, reject) => {
      const server = createServer((req, res) => {
        const pathname = (req.url ?? "/").split("?")[0]!;
        if (!isSignInPath(pathname)) return void res.writeHead(404).end();
        serveSignInPage(req, res, pathname, { ...this.context, redirectUri: () => this.redirectUri() }).catch(() => {
          if (!res.headersSent) res.writeHead(500).end();
        });
      });
      server.once("error", reject);
      server.listen(this.port, "127.0.0.1", () => {
        server.unref();
        const address = server.address();
        this.origin = `http://127.0.0.1:${typeof address === "object" && address ? address.port : this.port}`;
        resolve(this.origin);
      });
    });
    return this.listening;
  }

  /** The redirect URI (once listening). */
  redirectUri(): string {
    return `${this.origin ?? ""}${CALLBACK_PATH}`;
  }
}
