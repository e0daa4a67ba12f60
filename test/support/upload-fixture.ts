/** Shared by the uploads tests: a file server to upload from and an upstream that tells what bytes it received. No tests here. */
import { createHash } from "node:crypto";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** The sha256 of `data`, hex. */
export const sha256 = (data: Buffer): string => createHash("sha256").update(data).digest("hex");

/** A file server on 127.0.0.1: `/file.bin` the bytes, `/big` more than asked, `/hang` nothing, `/to?u=` a redirect, `/loop` to itself, `/odd…?type=` any name and type. */
export interface Files {
  url: (path: string) => string;
  hits: string[];
  close(): Promise<void>;
}

/** Serves `file` at `/file.bin` (and the other paths of {@link Files}). */
export async function startFiles(file: Buffer): Promise<Files> {
  const hits: string[] = [];
  const server: Server = createServer((req, res: ServerResponse) => {
    hits.push(req.url ?? "");
    const url = new URL(req.url ?? "/", "http://x");
    if (url.pathname === "/file.bin") return res.writeHead(200, { "content-type": "image/png" }).end(file);
    if (url.pathname === "/big") return res.writeHead(200).end(Buffer.alloc(2_000));
    if (url.pathname === "/big-chunked") {
      res.writeHead(200);
      for (let i = 0; i < 4; i++) res.write(Buffer.alloc(500));
      return res.end();
    }
    if (url.pathname.startsWith("/odd"))
      return res.writeHead(200, { "content-type": url.searchParams.get("type") ?? "" }).end("odd");
    if (url.pathname === "/loop") return res.writeHead(302, { location: "/loop" }).end();
    if (url.pathname === "/to") return res.writeHead(302, { location: url.searchParams.get("u")! }).end();
    if (url.pathname === "/hang") return;
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The upstream: answers the sha256 and size of the file bytes it received (the file part of a multipart body). */
export async function startUploadUpstream(): Promise<{ baseUrl: string; received: Buffer[]; close(): Promise<void> }> {
  const received: Buffer[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const boundary = /boundary=(\S+)/.exec(req.headers["content-type"] ?? "")?.[1];
      const file = boundary ? filePart(body, boundary) : body;
      received.push(file);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ sha256: sha256(file), size: file.length }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The bytes of the part with a filename in a multipart body. */
function filePart(body: Buffer, boundary: string): Buffer {
  const start = body.indexOf("filename=");
  const from = body.indexOf("\r\n\r\n", start) + 4;
  return body.subarray(from, body.indexOf(`\r\n--${boundary}`, from));
}
