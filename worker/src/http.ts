/**
 * How the API speaks HTTP: JSON answers and JSON:API error documents, `cache-control: no-store` on every response
 * (a signup answer is about one person and must never be cached or replayed by a proxy), the Origin rule, and
 * reading a request body of a known type and bounded size. No CORS headers for anyone: only the site's own pages
 * call the API, from its own origin.
 */

/** JSON:API's media type, for error documents. */
export const JSON_API_CONTENT_TYPE = "application/vnd.api+json";

/** The request body types the API reads: JSON from the page's script, the form encoding from the no-JavaScript form. */
export const JSON_CONTENT_TYPE = "application/json";
export const FORM_CONTENT_TYPE = "application/x-www-form-urlencoded";

/** The largest request body read (bytes): a signup with every property at its bound fits several times over. */
export const MAX_BODY_BYTES = 8_192;

/** Headers every response carries. */
const COMMON_HEADERS = { "cache-control": "no-store", "x-content-type-options": "nosniff" } as const;

/** One entry of a JSON:API `errors` array. */
export interface ApiError {
  /** The HTTP status, e.g. 400 (written as a string in the document, as JSON:API asks). */
  status: number;
  /** Stable, machine-readable, snake_case: what clients branch on, e.g. `email_required`. */
  code: string;
  /** Plain English for a developer reading the answer; never shown to a visitor. */
  detail: string;
  /** JSON pointer into the request document, e.g. `/email`, when one member is at fault. */
  pointer?: string;
}

/** A JSON answer with the common headers. */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": `${JSON_CONTENT_TYPE}; charset=utf-8`, ...COMMON_HEADERS, ...headers },
  });
}

/**
 * A JSON:API error document `{ errors: [{ status, code, detail, source: { pointer } }] }`; the response's status is the
 * first error's.
 * @param headers extra headers, e.g. `Retry-After` or `Allow`
 */
export function errorResponse(errors: [ApiError, ...ApiError[]], headers: Record<string, string> = {}): Response {
  const document = {
    errors: errors.map(({ status, code, detail, pointer }) => ({
      status: String(status),
      code,
      detail,
      ...(pointer === undefined ? {} : { source: { pointer } }),
    })),
  };
  return new Response(JSON.stringify(document), {
    status: errors[0].status,
    headers: { "content-type": JSON_API_CONTENT_TYPE, ...COMMON_HEADERS, ...headers },
  });
}

/** 303 See Other to a path of the request's own origin (the no-JavaScript form's answer: the browser GETs it). */
export function seeOther(request: Request, location: string): Response {
  return new Response(null, { status: 303, headers: { location: new URL(location, request.url).href, ...COMMON_HEADERS } });
}

/** 404 for a path under /api/ that does not exist. */
export function notFound(request: Request): Response {
  return errorResponse([{ status: 404, code: "not_found", detail: `No API at ${new URL(request.url).pathname}.` }]);
}

/** 405 with `Allow`, for a method the path does not take (OPTIONS too: there is no CORS preflight to answer). */
export function methodNotAllowed(request: Request, allowed: string[]): Response {
  return errorResponse(
    [{ status: 405, code: "method_not_allowed", detail: `${request.method} is not allowed here; use ${allowed.join(", ")}.` }],
    {
      allow: allowed.join(", "),
    },
  );
}

/**
 * Whether a request comes from a page of the API's own origin.
 * - With an `Origin` header (every browser sends one on a POST, a form's included): it must equal the request URL's
 *   own origin. `Origin: null` (sandboxed frames, some cross-site redirects) never does.
 * - Without one: allowed unless the browser says, through `Sec-Fetch-Site`, that the request is not same-origin.
 *   Clients outside a browser (curl, the bench) send neither header; they are held back by the rate limit and
 *   Turnstile, not by this rule, which exists against other sites' pages posting with a visitor's browser.
 */
export function isSameOrigin(request: Request): boolean {
  const origin = request.headers.get("origin");
  if (origin !== null) return origin === new URL(request.url).origin;
  const site = request.headers.get("sec-fetch-site");
  return site === null || site === "same-origin";
}

/** The media type of a request body, lower case without parameters (`application/json; charset=utf-8` → `application/json`), or "". */
export function mediaType(request: Request): string {
  return (request.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
}

/** A body larger than MAX_BODY_BYTES (thrown by readBody). */
export class BodyTooLarge extends Error {
  constructor() {
    super(`The request body is over ${MAX_BODY_BYTES} bytes.`);
  }
}

/**
 * The request body as text (UTF-8), read as a stream and stopped as soon as it passes `maxBytes`, so that a
 * sender cannot make the Worker buffer more; a `Content-Length` over the limit is refused before reading.
 * @param maxBytes the limit (bytes; default MAX_BODY_BYTES)
 * @throws BodyTooLarge when the declared or the read size is over the limit
 */
export async function readBody(request: Request, maxBytes = MAX_BODY_BYTES): Promise<string> {
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) throw new BodyTooLarge();
  if (!request.body) return "";
  // A request body is bytes; the runtime's typings leave the chunk type open.
  const reader = (request.body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new BodyTooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}
