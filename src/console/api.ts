/**
 * The console's calls to `/api/console/*` (shared/console.ts). Every failure becomes a ConsoleError carrying the
 * key of the content's message for it (`console.errors`), so a view never shows the server's or the browser's text.
 * Cloudflare Access signs the requests in at the edge (its cookie); the page adds nothing.
 */
import { send } from "../api/client";
import { errorKeyOf, jsonApiErrors } from "../api/errors";
import type {
  BatchActionAnswer,
  BatchAnswer,
  BatchRequest,
  InvitationAnswer,
  ScheduleAnswer,
  ScheduleRequest,
} from "../../shared/api/launch";
import {
  batchActionEndpoint,
  LAUNCH_BATCHES_ENDPOINT,
  LAUNCH_SCHEDULE_ENDPOINT,
  personInviteEndpoint,
  personResendEndpoint,
  personRevokeEndpoint,
  type BatchAction,
  type PersonInvitationAction,
} from "../../shared/launch";
import { CONSOLE_ERROR_CODE, type PersonAction } from "../../shared/console";
import { personActionEndpoint, personExportEndpoint } from "../../shared/console";
import { JSON_CONTENT_TYPE } from "../../shared/contract";
import { DRAW_COMMIT_ENDPOINT, DRAW_RUN_ENDPOINT } from "../../shared/giveaway/commit";
import type { ActionAnswer, ActionRequest, PersonExport } from "../../shared/api/console";
import type { CommitRequest, Commitment, DrawState } from "../../shared/api/draw";

/** How long a request may take before it counts as failed (ms). */
export const CONSOLE_REQUEST_TIMEOUT_MS = 15_000;

/** The content's error messages, by key: one per CONSOLE_ERROR_CODE, and `unavailable` for everything else. */
export type ConsoleErrorKey = keyof typeof CONSOLE_ERROR_CODE | "unavailable";

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

/**
 * Send a request and read its JSON answer, within CONSOLE_REQUEST_TIMEOUT_MS.
 * @returns the parsed body of a 2xx answer
 * @throws ConsoleError for any other answer (its JSON:API code read when it is one of ours), no answer, or no JSON
 */
async function requestJson<T>(path: string, init: { method?: string; body?: string } = {}, signal?: AbortSignal): Promise<T> {
  const answer = await send(
    path,
    {
      method: init.method ?? "GET",
      headers: { accept: JSON_CONTENT_TYPE, ...(init.body === undefined ? {} : { "content-type": JSON_CONTENT_TYPE }) },
      body: init.body,
      credentials: "same-origin",
      cache: "no-store",
    },
    { timeoutMs: CONSOLE_REQUEST_TIMEOUT_MS, signal },
  );
  if (!answer.answered) throw new ConsoleError("unavailable", null);
  const { status, body } = answer;
  if (status < 200 || status > 299)
    throw new ConsoleError(errorKeyOf(body, CONSOLE_ERROR_CODE) ?? "unavailable", status, jsonApiErrors(body)[0]?.code ?? null);
  if (body === null || typeof body !== "object") throw new ConsoleError("unavailable", status);
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
 * POST a draw's commitment (shared/giveaway/commit.ts); the answer is the draw's state, its job started.
 * @throws ConsoleError (a refusal's code in `code`)
 */
export function postDrawCommit(request: CommitRequest): Promise<DrawState> {
  return requestJson<DrawState>(DRAW_COMMIT_ENDPOINT, { method: "POST", body: JSON.stringify(request) });
}

/**
 * POST the run of the committed draw (shared/giveaway/commit.ts); the answer is the commitment with its result.
 * @throws ConsoleError (a refusal's code in `code`: RUN_REFUSAL)
 */
export function postDrawRun(): Promise<Commitment> {
  return requestJson<Commitment>(DRAW_RUN_ENDPOINT, { method: "POST" });
}

/**
 * POST "invite the next N" with the preview's idempotency key (a double press makes one batch).
 * @throws ConsoleError
 */
export function postBatch(request: BatchRequest): Promise<BatchAnswer> {
  return requestJson<BatchAnswer>(LAUNCH_BATCHES_ENDPOINT, { method: "POST", body: JSON.stringify(request) });
}

/** A person's invitation action's endpoint. */
const INVITATION_ENDPOINTS: Record<PersonInvitationAction, (id: string) => string> = {
  invite: personInviteEndpoint,
  revoke: personRevokeEndpoint,
  "resend-invitation": personResendEndpoint,
};

/**
 * POST a person's invite, revoke or send again with its reason.
 * @throws ConsoleError
 */
export function postInvitation(personId: string, action: PersonInvitationAction, request: ActionRequest): Promise<InvitationAnswer> {
  return requestJson<InvitationAnswer>(INVITATION_ENDPOINTS[action](personId), { method: "POST", body: JSON.stringify(request) });
}

/**
 * POST a batch's pause or resume with its reason.
 * @throws ConsoleError
 */
export function postBatchAction(batchId: string, action: BatchAction, request: ActionRequest): Promise<BatchActionAnswer> {
  return requestJson<BatchActionAnswer>(batchActionEndpoint(batchId, action), { method: "POST", body: JSON.stringify(request) });
}

/**
 * PUT the whole schedule (pausing it with `paused: true`) with its reason.
 * @throws ConsoleError
 */
export function putSchedule(request: ScheduleRequest): Promise<ScheduleAnswer> {
  return requestJson<ScheduleAnswer>(LAUNCH_SCHEDULE_ENDPOINT, { method: "PUT", body: JSON.stringify(request) });
}

/** `path?name=value…` with the values encoded; null and "" values left out. */
export function withQuery(path: string, query: Record<string, string | null | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value) params.set(name, value);
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}
