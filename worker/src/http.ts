/**
 * How the API speaks HTTP: JSON answers, JSON:API errors, `cache-control: no-store` (an answer is about one person and
 * must never be cached by a proxy), the Origin rule, a bounded body read. No CORS: only the site's pages call the API.
 */
import { JSON_API_CONTENT_TYPE, JSON_CONTENT_TYPE } from "../../shared/contract";
import type { ErrorDocument } from "../../shared/api/errors";

/** The largest request body read (bytes): a signup with every property at its bound fits several times over. */
export const MAX_BODY_BYTES = 8_192;

/** Retry-After of a 503 `unavailable` (s): D1, the queue or siteverify failing is usually over within seconds. */
export const UNAVAILABLE_RETRY_AFTER_S = 5;

const COMMON_HEADERS = { "cache-control": "no-store", "x-content-type-options": "nosniff" } as const;

/** One error, before it is written as a JSON:API error object. */
export interface ApiError {
  status: number;
  /** Stable and snake_case: what clients branch on (shared/contract.ts). */
  code: string;
  /** Plain English for a developer; never shown to a visitor. */
  detail: string;
  /** JSON pointer into the request document (`/email`) when one member is at fault. */
  pointer?: string;
  /** The query or path parameter at fault. */
  parameter?: string;
}

/** A JSON answer with the common headers. */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": `${JSON_CONTENT_TYPE}; charset=utf-8`, ...COMMON_HEADERS, ...headers },
  });
}

/**
 * A JSON:API error document `{ errors: [{ status, code, detail, source: { pointer | parameter } }] }` with the first
 * error's status.
 */
export function errorResponse(errors: [ApiError, ...ApiError[]], headers: Record<string, string> = {}): Response {
  const document: ErrorDocument = {
    errors: errors.map(({ status, code, detail, pointer, parameter }) => ({
      status: String(status),
      code,
      detail,
      ...(pointer === undefined ? {} : { source: { pointer } }),
      ...(parameter === undefined ? {} : { source: { parameter } }),
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

/**
 * Whether a request path is the API's: /api or under /api/, in any letter case (the router's paths are exact, so
 * `/API/signups` is no route, but it is still a request for the API and gets the API's 404, not a page).
 */
export function isApiPath(path: string): boolean {
  return /^\/api(\/|$)/i.test(path);
}

/** 404 for a path under /api/ that does not exist (or not now: the referral program is off). */
export function notFound(request: Request, why = ""): Response {
  return errorResponse([{ status: 404, code: "not_found", detail: `No API at ${new URL(request.url).pathname}${why}.` }]);
}

/**
 * 400 `path_invalid` for an address under /api/ whose path does not decode (percent-encoding that is not UTF-8): no
 * route could read it, and no handler is asked to.
 */
export function pathInvalid(request: Request): Response {
  return errorResponse([
    { status: 400, code: "path_invalid", detail: `The path ${new URL(request.url).pathname} is not percent-encoded UTF-8.` },
  ]);
}

/** 405 with `Allow`, for a method the path does not take (OPTIONS too: there is no CORS preflight to answer). */
export function methodNotAllowed(request: Request, allowed: readonly string[]): Response {
  return errorResponse(
    [{ status: 405, code: "method_not_allowed", detail: `${request.method} is not allowed here; use ${allowed.join(", ")}.` }],
    { allow: allowed.join(", ") },
  );
}

/** 503 `not_configured`: the operator has work to do, and the log says what. */
export function notConfigured(): Response {
  return errorResponse([
    { status: 503, code: "not_configured", detail: "The waitlist service is not configured; its operator has been told by the log." },
  ]);
}

/** The 503 `unavailable` error: D1, the queue or siteverify failed; the client may try again shortly. */
export const UNAVAILABLE: ApiError = {
  status: 503,
  code: "unavailable",
  detail: "The waitlist is briefly unavailable; try again shortly.",
};

export const UNAVAILABLE_HEADERS = { "retry-after": String(UNAVAILABLE_RETRY_AFTER_S) } as const;

/**
 * Whether a request comes from a page of the API's own origin.
 * - With an `Origin` header (every browser sends one on a POST, a form's included): it must equal the request URL's
 *   own origin. `Origin: null` (sandboxed frames, some cross-site redirects) never does.
 * - Without one: allowed unless `Sec-Fetch-Site` says the request is not same-origin. Clients outside a browser send
 *   neither; the rate limit and Turnstile hold them back. This rule is against other sites' pages posting with a
 *   visitor's browser.
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

/** The token of an `Authorization: Bearer <token>` header (RFC 6750; the scheme case-insensitive), or null. */
export function bearerToken(request: Request): string | null {
  const match = /^Bearer +(\S+) *$/i.exec(request.headers.get("authorization") ?? "");
  return match ? match[1] : null;
}

/** A body larger than MAX_BODY_BYTES (thrown by readBody). */
export class BodyTooLarge extends Error {
  constructor() {
    super(`The request body is over ${MAX_BODY_BYTES} bytes.`);
    this.name = "BodyTooLarge";
  }
}

/** The 413 answer's error. */
export const BODY_TOO_LARGE: ApiError = { status: 413, code: "body_too_large", detail: `The body may be at most ${MAX_BODY_BYTES} bytes.` };

/**
 * The request body as UTF-8 text, read as a stream and stopped as soon as it passes `maxBytes`, so a sender cannot
 * make the Worker buffer more; a `Content-Length` over the limit is refused before reading. Not Hono's `bodyLimit`:
 * it has had bypass advisories, and this counts the bytes actually read.
 * @param maxBytes bytes
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

/**
 * A JSON body, read within MAX_BODY_BYTES (readBody), or the error to answer instead: 413 `body_too_large`, or 400
 * `invalid_json` for a body that is not JSON.
 */
export async function readJsonBody(request: Request): Promise<{ document: unknown } | { error: ApiError }> {
  try {
    return { document: JSON.parse(await readBody(request)) as unknown };
  } catch (error) {
    if (error instanceof BodyTooLarge) return { error: BODY_TOO_LARGE };
    return { error: { status: 400, code: "invalid_json", detail: `The body is not valid JSON (${(error as Error).message}).` } };
  }
}

/**
 * Whether two secrets are equal, in time that does not depend on where they differ: both are hashed first (SHA-256),
 * so the comparison is of equal lengths, then compared with the runtime's timingSafeEqual.
 */
export async function sameSecret(given: string, expected: string): Promise<boolean> {
  const digest = async (text: string) => crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  const [a, b] = await Promise.all([digest(given), digest(expected)]);
  return crypto.subtle.timingSafeEqual(a, b);
}

/** The built 404 page (Gatsby's). */
const NOT_FOUND_PAGE_PATH = "/404.html";

/**
 * The site's 404 page with status 404, as the asset server answers a path that does not exist (asked for by its own
 * path, the asset server answers it 200): for the console or the editor on another host, a published file not written.
 */
export async function notFoundPage(env: { ASSETS: Fetcher }, url: URL): Promise<Response> {
  const page = await env.ASSETS.fetch(new Request(new URL(NOT_FOUND_PAGE_PATH, url)));
  return new Response(page.body, { status: 404, headers: page.headers });
}
