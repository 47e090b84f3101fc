/**
 * The one HTTP client of the page (and of the console's command line, in Node 20): every call to the waitlist service
 * and to Klaviyo goes through `send`, which bounds it by a timeout combined with the caller's AbortSignal and reads the
 * answer's JSON. What an answer means is the caller's to say, in the content's words (errors.ts reads JSON:API codes).
 * No answer is a value, not an exception, so each caller maps it to the failure its screens already tell apart.
 */

/** An answer, read: its status, its headers and its body as JSON (null when empty, not JSON or not read). */
export interface ApiAnswer {
  answered: true;
  status: number;
  /** 2xx */
  ok: boolean;
  headers: Headers;
  body: unknown;
}

/**
 * No answer (or only part of one) arrived: the connection failed, the timeout ran out or the caller aborted.
 * `message` is the runtime's own text (empty after a timeout or an abort), for developers only.
 */
export interface ApiNoAnswer {
  answered: false;
  /** true when `send`'s timeout gave up, false when the runtime reported a failure or the caller aborted. */
  timedOut: boolean;
  message: string;
  cause: unknown;
}

export interface SendOptions {
  /** How long the request and the reading of its answer may take together (ms). */
  timeoutMs: number;
  /** The caller's, e.g. react-query's when the page no longer needs the answer. */
  signal?: AbortSignal;
  /** false for an opaque (`no-cors`) answer, which has no body to read. */
  readBody?: boolean;
}

/** JSON text read as a value, or null when it is empty or not JSON (a static host's 404 page, a proxy's error). */
function parseJson(text: string): unknown {
  try {
    return text ? (JSON.parse(text) as unknown) : null;
  } catch {
    return null;
  }
}

/**
 * Send one request and read its answer, within `timeoutMs`.
 * @param init fetch's options; `signal` is set here
 * @returns the answer whatever its status, or ApiNoAnswer; never throws
 */
export async function send(
  url: string,
  init: RequestInit,
  { timeoutMs, signal, readBody = true }: SendOptions,
): Promise<ApiAnswer | ApiNoAnswer> {
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
    const { status, headers } = response;
    return { answered: true, status, ok: status >= 200 && status < 300, headers, body };
  } catch (error) {
    const message = controller.signal.aborted || !(error instanceof Error) ? "" : error.message;
    return { answered: false, timedOut, message, cause: error };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", stop);
  }
}
