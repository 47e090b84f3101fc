/**
 * The console's launch routes' handlers (`/api/console/launch*`, a person's invite and revoke): behind Cloudflare
 * Access like every console route. docs/operators.md: Launch.
 */
import type { Context } from "hono";
import type { BatchAnswer, BatchRequest, InvitationAnswer, LaunchAnswer, LaunchPreview } from "../../../shared/api/launch";
import { CONSOLE_ERROR_CODE } from "../../../shared/console";
import { LAUNCH_ERROR_CODE } from "../../../shared/launch";
import { auditEntryOf } from "../console/rows";
import type { AppEnv } from "../env";
import { errorResponse, jsonResponse } from "../http";
import { log } from "../log";
import { SCORE_TREE_CAPACITY } from "../store/rank";
import { batchByKey, batchOf, createBatch, latestBatches, previewBatch, previewKey, queueLaunchMessages, runBatch } from "./batches";
import { invitationOf, invitePerson, revokeInvitation, type InvitationResult } from "./invitations";

/** Batches the Launch screen lists, newest first. */
export const LAUNCH_BATCHES_SHOWN = 20;

/** 200 LaunchAnswer: the funnel from the rank tree's total and the invitation counters, and the latest batches. */
export async function handleLaunch(c: Context<AppEnv>): Promise<Response> {
  const db = c.env.DB;
  const [waiting, counters] = await db.batch<{ name: string; count: number }>([
    db.prepare(`SELECT 'waiting' AS name, count FROM rank_tree WHERE node = ${SCORE_TREE_CAPACITY}`),
    db.prepare("SELECT substr(name, 13) AS name, count FROM rollup_counters WHERE name LIKE 'invitations\\_%' ESCAPE '\\'"),
  ]);
  const count = (name: string) => [...waiting.results, ...counters.results].find((row) => row.name === name)?.count ?? 0;
  const answer: LaunchAnswer = {
    funnel: {
      waiting: count("waiting"),
      invited: count("invited"),
      accepted: count("accepted"),
      expired: count("expired"),
      revoked: count("revoked"),
    },
    batches: (await latestBatches(db, LAUNCH_BATCHES_SHOWN)).map(batchOf),
  };
  return jsonResponse(200, answer);
}

/** 200 LaunchPreview for "invite the next `count`". */
export async function handlePreview(c: Context<AppEnv>, count: number): Promise<Response> {
  const [preview, idempotencyKey] = await Promise.all([previewBatch(c.env.DB, count), previewKey(c.env.DB, count)]);
  return jsonResponse(200, { ...preview, idempotencyKey } satisfies LaunchPreview);
}

/**
 * Invite the next N: 201 BatchAnswer with the batch made now (its first pages chosen, the rest queued); 200 with the
 * batch this idempotency key made before (a double press: nothing more is done); 409 `idempotency_key_reused` when
 * that batch asked for another count.
 */
export async function handleBatch(c: Context<AppEnv>, request: BatchRequest & { count: number }): Promise<Response> {
  const db = c.env.DB;
  const id = crypto.randomUUID();
  const at = new Date().toISOString();
  const entry = await createBatch(db, {
    id,
    idempotencyKey: request.idempotencyKey,
    at,
    operator: c.var.operator.id,
    reason: request.reason,
    requested: request.count,
  });
  if (!entry) {
    const existing = await batchByKey(db, request.idempotencyKey);
    if (!existing || existing.requested !== request.count)
      return errorResponse([
        {
          status: 409,
          code: LAUNCH_ERROR_CODE.idempotencyKeyReused,
          detail: "This idempotency key made a batch of another count.",
          pointer: "/idempotencyKey",
        },
      ]);
    return jsonResponse(200, { batch: batchOf(existing), audit: null } satisfies BatchAnswer);
  }
  log("launch_batch", { batch: id, requested: request.count, audit: entry.id });
  const batch = await runBatch(c.env, c.var.settings, id);
  return jsonResponse(201, { batch: batchOf(batch!), audit: auditEntryOf(entry) } satisfies BatchAnswer);
}

/**
 * An invitation action's answer: 200 InvitationAnswer, 400 `reason_invalid` (the reason names the person), 404
 * `person_not_found`, 409 `invitation_not_applicable`.
 */
function invitationAnswer(result: InvitationResult): Response {
  if (result.kind === "reason_invalid")
    return errorResponse([{ status: 400, code: CONSOLE_ERROR_CODE.reasonInvalid, detail: result.detail, pointer: "/reason" }]);
  if (result.kind === "not_found")
    return errorResponse([{ status: 404, code: CONSOLE_ERROR_CODE.personNotFound, detail: "No person has that id." }]);
  if (result.kind === "not_applicable")
    return errorResponse([{ status: 409, code: LAUNCH_ERROR_CODE.invitationNotApplicable, detail: result.detail }]);
  return jsonResponse(200, { invitation: invitationOf(result.invitation), audit: auditEntryOf(result.audit) } satisfies InvitationAnswer);
}

/** POST …/people/:id/invite: invite one person now, and queue their invitation's event. */
export async function handleInvitePerson(c: Context<AppEnv>, id: string, reason: string): Promise<Response> {
  const result = await invitePerson({ env: c.env, settings: c.var.settings, operator: c.var.operator.id, reason, now: new Date() }, id);
  if (result.kind === "done") {
    log("launch_invite", { id, invitation: result.invitation.id, audit: result.audit.id });
    await queueLaunchMessages(c.env, [{ kind: "invitation", invitationId: result.invitation.id }]);
  }
  return invitationAnswer(result);
}

/** POST …/people/:id/revoke: revoke the person's open invitation. */
export async function handleRevoke(c: Context<AppEnv>, id: string, reason: string): Promise<Response> {
  const result = await revokeInvitation({ env: c.env, settings: c.var.settings, operator: c.var.operator.id, reason, now: new Date() }, id);
  if (result.kind === "done") log("launch_revoke", { id, invitation: result.invitation.id, audit: result.audit.id });
  return invitationAnswer(result);
}
