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
  headers: Headers;
  body: unknown;
}

/**
 * No answer (or only part of one) arrived: the connection failed, the timeout ran out or the caller aborted.
 * `error` is what the runtime threw (its message is for developers only).
 */
export interface ApiNoAnswer {
  answered: false;
  /** true when `send`'s timeout gave up, false when the runtime reported a failure or the caller aborted. */
  timedOut: boolean;
  error: unknown;
}

export interface SendOptions {
  /** How long the request and the reading of its answer may take together (ms). */
  timeoutMs: number;
  /** The caller's, e.g. react-query's when the page no longer needs the answer. */
  signal?: AbortSignal;
  /** false for an opaque (`no-cors`) answer, which has no body to read. */
  readBody?: boolean;
}

/**
 * Send one request and read its answer, within `timeoutMs`.
 * @param init fetch's options; `signal` is set here
 * @returns the answer whatever its status (2xx or not is the caller's to judge), or ApiNoAnswer; never throws
 */
export async function send(
  url: string,
  init: RequestInit,
  { timeoutMs, signal, readBody = true }: SendOptions,
): Promise<ApiAnswer | ApiNoAnswer> {
  const controller = new AbortController();
  const stop = () => controller.abort();
  signal?.addEventListener("abort", stop);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    stop();
  }, timeoutMs);
  try {
    const response = await fetch(url, { ...init, signal: controller.signal });
    // The body is read under the same timeout: a server that stalls mid-answer has not answered either.
    const text = readBody ? await response.text() : "";
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      // Not JSON (a static host's 404 page, a proxy's error): nothing to read.
    }
    return { answered: true, status: response.status, headers: response.headers, body };
  } catch (error) {
    return { answered: false, timedOut, error };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", stop);
  }
}
