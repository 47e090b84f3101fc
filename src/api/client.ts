/**
 * The one HTTP client of the page (and of the console's command line, in Node 20): every call to the waitlist service
 * and to Klaviyo goes through `send`, which bounds it by a timeout combined with the caller's AbortSignal and reads the
 * answer's JSON. What an answer means is the caller's to say; `errorKeyOf` turns a JSON:API error code into the key of
 * the content's words for it, so a page never shows the browser's or the server's own text.
 */
import type { ErrorObject } from "../../shared/api/errors";

/**
 * No answer arrived: the connection failed, the timeout ran out or the caller aborted. `message` is the runtime's own
 * text (empty after a timeout or an abort), for developers only.
 */
export class ApiUnreachableError extends Error {
  /** true when `send`'s timeout gave up, false when the runtime reported a failure or the caller aborted. */
  readonly timedOut: boolean;
  constructor(message: string, options: { cause?: unknown; timedOut: boolean }) {
    super(message, { cause: options.cause });
    this.name = "ApiUnreachableError";
    this.timedOut = options.timedOut;
  }
}

/** An answer, read: its status, its headers and its body as JSON (null when empty, not JSON or not read). */
export interface ApiAnswer {
  status: number;
  /** 2xx */
  ok: boolean;
  headers: Headers;
  body: unknown;
}

export interface SendOptions {
  /** How long the request and the reading of its answer may take together (ms). */
  timeoutMs: number;
  /** The caller's, e.g. react-query's when the page no longer needs the answer. */
  signal?: AbortSignal;
  /** false for an opaque (`no-cors`) answer, which has no body to read. */
  readBody?: boolean;
}

/** JSON text read as a value, or null when it is empty or not JSON. */
function parseJson(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // A static host's 404 page, a proxy's error, an Access login page: nothing of ours to read.
    return null;
  }
}

/**
 * Send one request and read its answer, within `timeoutMs`.
 * @param init fetch's options; `signal` is set here
 * @returns the answer, whatever its status
 * @throws ApiUnreachableError when no answer (or only part of one) arrived in time
 */
export async function send(url: string, init: RequestInit, { timeoutMs, signal, readBody = true }: SendOptions): Promise<ApiAnswer> {
  const controller = new AbortController();
  const stop = () => controller.abort();
  if (signal?.aborted) stop();
  else signal?.addEventListener("abort", stop);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    stop();
  }, timeoutMs);
  try {
    const response = await fetch(url, { ...init, signal: controller.signal });
    // The body is read under the same timeout: a server that stalls mid-answer has not answered either.
    const body = readBody ? parseJson(await response.text()) : null;
    return { status: response.status, ok: response.status >= 200 && response.status < 300, headers: response.headers, body };
  } catch (error) {
    const message = controller.signal.aborted || !(error instanceof Error) ? "" : error.message;
    throw new ApiUnreachableError(message, { cause: error, timedOut });
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", stop);
  }
}

/** One entry of a JSON:API `errors` array, as read: every member is optional in practice. */
export type JsonApiError = Partial<ErrorObject>;

/** The `errors` array of a JSON:API error document, or [] for anything else. */
export function jsonApiErrors(body: unknown): JsonApiError[] {
  const errors = (body as { errors?: unknown } | null)?.errors;
  return Array.isArray(errors) ? errors.filter((error): error is JsonApiError => typeof error === "object" && error !== null) : [];
}

/**
 * The key of the content's words for an error document: the key whose code is the first of the document's codes that
 * `codes` knows.
 * @param codes content key → JSON:API `code`, e.g. CONSOLE_ERROR_CODE
 * @returns that key, or null when no code of the document is known (or the body is no error document)
 */
export function errorKeyOf<K extends string>(body: unknown, codes: Readonly<Record<K, string>>): K | null {
  const keys = Object.keys(codes) as K[];
  for (const { code } of jsonApiErrors(body)) {
    const key = keys.find((candidate) => codes[candidate] === code);
    if (key) return key;
  }
  return null;
}
