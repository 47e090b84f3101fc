/**
 * The console's calls to `/api/console/*` (shared/console.ts). Every failure becomes a ConsoleError carrying the
 * key of the content's message for it (`console.errors`), so a view never shows the server's or the browser's text.
 * Cloudflare Access signs the requests in at the edge (its cookie); the page adds nothing.
 */
import { CONSOLE_ERROR_CODE, type PersonAction } from "../../shared/console";
import { personActionEndpoint, personExportEndpoint } from "../../shared/console";
import { JSON_CONTENT_TYPE } from "../../shared/contract";
import { DRAW_COMMIT_ENDPOINT } from "../../shared/giveaway/commit";
import type { DrawFile } from "../../shared/giveaway/draw-file";
import type { ActionAnswer, ActionRequest, PersonExport } from "../../shared/api/console";
import type { CommitRequest } from "../../shared/api/draw";

/** How long a request may take before it counts as failed (ms). */
export const CONSOLE_REQUEST_TIMEOUT_MS = 15_000;

/** The content's error messages, by key: one per CONSOLE_ERROR_CODE, and `unavailable` for everything else. */
export type ConsoleErrorKey = keyof typeof CONSOLE_ERROR_CODE | "unavailable";

const KEY_OF_CODE = new Map<string, ConsoleErrorKey>(
  Object.entries(CONSOLE_ERROR_CODE).map(([key, code]) => [code, key as ConsoleErrorKey]),
);

/**
 * A console request that failed; `key` names the content's message for it, `code` is the answer's first JSON:API code
 * (for a screen with messages of its own, such as the draw's refusals), or null.
 */
export class ConsoleError extends Error {
  constructor(
    readonly key: ConsoleErrorKey,
    readonly status: number | null,
    readonly code: string | null = null,
  ) {
    super(`Console request failed: ${key} (${status ?? "no answer"})`);
    this.name = "ConsoleError";
  }
}

/** The ConsoleErrorKey of an error document's first known code, or `unavailable`. */
function keyOf(body: unknown): ConsoleErrorKey {
  const errors = (body as { errors?: { code?: unknown }[] } | null)?.errors;
  if (!Array.isArray(errors)) return "unavailable";
  for (const error of errors) {
    const key = typeof error?.code === "string" ? KEY_OF_CODE.get(error.code) : undefined;
    if (key) return key;
  }
  return "unavailable";
}

/** The first error's `code` of an error document, or null. */
function firstCode(body: unknown): string | null {
  const code = (body as { errors?: { code?: unknown }[] } | null)?.errors?.[0]?.code;
  return typeof code === "string" ? code : null;
}

/**
 * Send a request and read its JSON answer, within CONSOLE_REQUEST_TIMEOUT_MS.
 * @returns the parsed body of a 2xx answer
 * @throws ConsoleError for any other answer (its JSON:API code read when it is one of ours), no answer, or no JSON
 */
async function requestJson<T>(path: string, init: { method?: string; body?: string } = {}, signal?: AbortSignal): Promise<T> {
  const controller = new AbortController();
  const stop = () => controller.abort();
  signal?.addEventListener("abort", stop);
  const timer = setTimeout(stop, CONSOLE_REQUEST_TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(path, {
      method: init.method ?? "GET",
      headers: { accept: JSON_CONTENT_TYPE, ...(init.body === undefined ? {} : { "content-type": JSON_CONTENT_TYPE }) },
      body: init.body,
      credentials: "same-origin",
      cache: "no-store",
      signal: controller.signal,
    });
  } catch {
    throw new ConsoleError("unavailable", null);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", stop);
  }
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    // Not JSON (a static host's 404 page, a proxy's error): nothing of ours to read.
  }
  if (!response.ok) throw new ConsoleError(keyOf(body), response.status, firstCode(body));
  if (body === null || typeof body !== "object") throw new ConsoleError("unavailable", response.status);
  return body as T;
}

/**
 * GET one of the console's endpoints.
 * @throws ConsoleError
 */
export function getConsole<T>(path: string, signal?: AbortSignal): Promise<T> {
  return requestJson<T>(path, {}, signal);
}

/**
 * POST an action with its reason.
 * @throws ConsoleError
 */
export function postAction(personId: string, action: PersonAction, request: ActionRequest): Promise<ActionAnswer> {
  return requestJson<ActionAnswer>(personActionEndpoint(personId, action), { method: "POST", body: JSON.stringify(request) });
}

/**
 * POST the export of a person's data with its reason (an action, audited like the others).
 * @throws ConsoleError
 */
export function postExport(personId: string, request: ActionRequest): Promise<PersonExport> {
  return requestJson<PersonExport>(personExportEndpoint(personId), { method: "POST", body: JSON.stringify(request) });
}

/**
 * POST a draw's commitment (shared/giveaway/commit.ts); the answer is the draw file to publish.
 * @throws ConsoleError (a refusal's code in `code`)
 */
export function postDrawCommit(request: CommitRequest): Promise<DrawFile> {
  return requestJson<DrawFile>(DRAW_COMMIT_ENDPOINT, { method: "POST", body: JSON.stringify(request) });
}

/** `path?name=value…` with the values encoded; null and "" values left out. */
export function withQuery(path: string, query: Record<string, string | null | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value) params.set(name, value);
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}
