/**
 * The slot through which a feature watches each upstream HTTP request (feature `otel`): the core
 * says what it sends and how it ended, the feature answers the headers to add (`traceparent`).
 */

/** One upstream request as the core describes it; `url` has no credential the auth feature adds. */
export interface UpstreamRequestInfo {
  /** Upper-case HTTP method. */
  method: string;
  /** The request URL before credentials are applied (it may still hold argument values: redact it). */
  url: string;
  /** The operation's path template (`/pets/{petId}`), low in cardinality. */
  template: string;
}

/** How one upstream request ended. */
export interface UpstreamRequestEnd {
  /** The final response's status, when one came. */
  status?: number | undefined;
  /** Requests sent for it (1, or more after got's retries). */
  attempts: number;
  /** A short error class when no response came (`ETIMEDOUT`, `timeout`, `cancelled`, `too_large`). */
  error?: string | undefined;
}

/** A watched upstream request: the headers to send with it, and its end. */
export interface UpstreamRequestWatch {
  headers: Record<string, string>;
  end(outcome: UpstreamRequestEnd): void;
}

/** Watches the upstream requests of one MCP request. */
export interface UpstreamTrace {
  start(request: UpstreamRequestInfo): UpstreamRequestWatch;
}
