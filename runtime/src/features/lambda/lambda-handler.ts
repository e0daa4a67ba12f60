/**
 * Lambda handlers around a Web-standard fetch handler: a buffered one (API Gateway HTTP API and
 * function URLs in BUFFERED mode: the whole answer at once, up to 6 MB) and a streaming one
 * (function URLs in RESPONSE_STREAM mode: an event stream reaches the client event by event).
 */
import { Readable, type Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  requestFromEvent,
  resultFromResponse,
  responseHead,
  type LambdaContext,
  type LambdaHttpEvent,
  type LambdaHttpResult,
} from "./lambda-event.js";
import type { FetchHandler } from "../fetch/fetch-handler.js";

/** A buffered Lambda handler. */
export type BufferedLambdaHandler = (event: LambdaHttpEvent, context?: LambdaContext) => Promise<LambdaHttpResult>;

/** A streaming handler before the platform wraps it: it writes the answer to `stream`. */
export type StreamingLambdaHandler = (
  event: LambdaHttpEvent,
  stream: Writable,
  context?: LambdaContext,
) => Promise<void>;

/** The part of the Node.js Lambda runtime's global `awslambda` that response streaming uses. */
export interface LambdaStreaming {
  streamifyResponse(handler: StreamingLambdaHandler): unknown;
  HttpResponseStream: {
    from(stream: Writable, head: { statusCode: number; headers: Record<string, string>; cookies: string[] }): Writable;
  };
}

/** The buffered handler: event → request → `fetch` → result. */
export function bufferedHandler(fetch: FetchHandler): BufferedLambdaHandler {
  return async (event, context) => resultFromResponse(await fetch(requestFromEvent(event, context)));
}

/**
 * The streaming handler, wrapped by the platform's `streamifyResponse`: the status and headers go
 * first (`HttpResponseStream.from`), then the body as the server writes it. Undefined where the
 * runtime offers no response streaming (no global `awslambda`: local emulators, other hosts).
 */
export function streamingHandler(fetch: FetchHandler, platform: LambdaStreaming | undefined): unknown {
  if (platform === undefined) return undefined;
  return platform.streamifyResponse(async (event, stream, context) => {
    const response = await fetch(requestFromEvent(event, context));
    const out = platform.HttpResponseStream.from(stream, { statusCode: response.status, ...responseHead(response) });
    if (response.body === null) {
      await new Promise<void>((done) => out.end(done));
      return;
    }
    await pipeline(Readable.fromWeb(response.body as import("node:stream/web").ReadableStream<Uint8Array>), out);
  });
}
