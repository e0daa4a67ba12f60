/**
 * AWS Lambda's HTTP events as Web-standard requests and responses: an API Gateway HTTP API event
 * (payload format 2.0) or a Lambda function URL event, which share one shape, becomes a `Request`
 * for the server's fetch handler, and its `Response` becomes the result Lambda turns back into HTTP.
 * The types are the fields read here (the `aws-lambda` type package is not a dependency of a server).
 */

/** An API Gateway HTTP API (payload 2.0) or function URL event: the fields a request needs. */
export interface LambdaHttpEvent {
  /** "2.0" for both sources. */
  version?: string;
  /** The path as the client sent it, not decoded. */
  rawPath: string;
  /** The query string without `?` ("" when none). */
  rawQueryString?: string;
  /** Lower-case names; repeated headers are joined with commas. */
  headers?: Record<string, string | undefined>;
  /** The `Cookie` header's pairs, split out of `headers`. */
  cookies?: string[];
  body?: string;
  isBase64Encoded?: boolean;
  requestContext: {
    domainName?: string;
    http: { method: string; sourceIp?: string };
  };
}

/** The result of a buffered invocation: Lambda writes it as the HTTP response. */
export interface LambdaHttpResult {
  statusCode: number;
  /** Every header but `Set-Cookie`, which goes to `cookies` (a map cannot repeat it). */
  headers: Record<string, string>;
  cookies: string[];
  body: string;
  isBase64Encoded: boolean;
}

/** What Lambda tells a handler of its invocation: the time left before the platform stops it. */
export interface LambdaContext {
  getRemainingTimeInMillis?: () => number;
}

/** Time kept back from the invocation's deadline to answer a request cut short (a 5xx, not Lambda's own timeout). */
const DEADLINE_MARGIN_MS = 500;

/**
 * The Web request of an event: URL from the Host header (the API's domain when absent), path and
 * query as sent, headers and cookies, the body decoded from base64 when Lambda encoded it. Its
 * signal aborts shortly before the invocation's deadline, so calls in flight are cancelled.
 */
export function requestFromEvent(event: LambdaHttpEvent, context: LambdaContext = {}): Request {
  const headers = eventHeaders(event);
  const method = event.requestContext.http.method.toUpperCase();
  const host = headers.get("host") ?? event.requestContext.domainName ?? "localhost";
  const scheme = headers.get("x-forwarded-proto") ?? "https";
  const query = event.rawQueryString ? `?${event.rawQueryString}` : "";
  const url = `${scheme}://${host}${event.rawPath || "/"}${query}`;
  const hasBody = method !== "GET" && method !== "HEAD" && event.body !== undefined;
  const remaining = context.getRemainingTimeInMillis?.();
  return new Request(url, {
    method,
    headers,
    body: hasBody ? eventBody(event) : undefined,
    signal: remaining === undefined ? undefined : AbortSignal.timeout(Math.max(0, remaining - DEADLINE_MARGIN_MS)),
  });
}

/** The event's headers, with its cookies put back into one `Cookie` header. */
function eventHeaders(event: LambdaHttpEvent): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(event.headers ?? {})) if (value !== undefined) headers.set(name, value);
  if (event.cookies && event.cookies.length > 0) headers.set("cookie", event.cookies.join("; "));
  return headers;
}

/** The body's bytes (base64-decoded) or text. */
function eventBody(event: LambdaHttpEvent): string | Uint8Array {
  const body = event.body ?? "";
  return event.isBase64Encoded ? new Uint8Array(Buffer.from(body, "base64")) : body;
}

/**
 * The buffered result of a response: the whole body read, as text when its media type is textual
 * (JSON, text, event streams, XML), else base64; `Set-Cookie` headers as `cookies`.
 */
export async function resultFromResponse(response: Response): Promise<LambdaHttpResult> {
  const { headers, cookies } = responseHead(response);
  const bytes = Buffer.from(await response.arrayBuffer());
  const textual = bytes.length === 0 || isTextual(response.headers.get("content-type"));
  return {
    statusCode: response.status,
    headers,
    cookies,
    body: bytes.toString(textual ? "utf8" : "base64"),
    isBase64Encoded: !textual,
  };
}

/** A response's status line and headers as Lambda takes them: `Set-Cookie` apart, the rest in a map. */
export function responseHead(response: Response): { headers: Record<string, string>; cookies: string[] } {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers[name] = value;
  });
  return { headers, cookies: response.headers.getSetCookie() };
}

/** True for media types whose body is text (a missing type counts as binary). */
function isTextual(contentType: string | null): boolean {
  if (contentType === null) return false;
  const type = contentType.split(";")[0]!.trim().toLowerCase();
  return (
    type.startsWith("text/") ||
    type === "application/json" ||
    type.endsWith("+json") ||
    type.endsWith("+xml") ||
    type === "application/xml" ||
    type === "application/javascript"
  );
}
