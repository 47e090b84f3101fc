/**
 * Launch day's documents as zod schemas: the console's Launch screen (funnel, batches, preview, invite the next N),
 * one person's invitation, and the firm's product's check-in. Paths, states and error codes are constants in
 * shared/launch.ts. A refusal is a JSON:API error document (errors.ts).
 */
import { z } from "zod";
import {
  BATCH_MAX_COUNT,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  INVITATION_STATES,
  SCHEDULE_KEY_PREFIX,
  PERSON_LAUNCH_STATES,
  SEND_STATES,
  SKIP_REASONS,
  TIME_OF_DAY_PATTERN,
} from "../launch";
import { ActionRequest, AuditEntry } from "./console";

const Count = z.int().min(0);
const Timestamp = z.string();
/** A place in line, 1 = first. */
const Place = z.int().min(1);

/** How many to invite: a whole number from 1 to BATCH_MAX_COUNT (a query parameter arrives as text). */
const BatchCount = z.coerce
  .number({ error: `give a whole number from 1 to ${BATCH_MAX_COUNT}.` })
  .int({ error: `give a whole number from 1 to ${BATCH_MAX_COUNT}.` })
  .min(1, { error: `give a whole number from 1 to ${BATCH_MAX_COUNT}.` })
  .max(BATCH_MAX_COUNT, { error: `give a whole number from 1 to ${BATCH_MAX_COUNT}.` });

/** GET /api/console/launch/preview's query. */
export const PreviewQuery = z.strictObject({ count: BatchCount.meta({ type: "integer", description: "How many to invite." }) });
export type PreviewQuery = z.input<typeof PreviewQuery>;

/** People passed over, by reason. */
export const SkippedCounts = z.object(
  Object.fromEntries(SKIP_REASONS.map((reason) => [reason, Count])) as Record<(typeof SKIP_REASONS)[number], typeof Count>,
);
export type SkippedCounts = z.infer<typeof SkippedCounts>;

/** GET /api/console/launch/preview: who "invite the next N" would invite now. */
export const LaunchPreview = z.object({
  /** People it would invite (fewer than asked when the line runs out). */
  count: Count,
  /** The first and last of them by place in line now; null when none. */
  firstPlace: Place.nullable(),
  lastPlace: Place.nullable(),
  /** The people in line before the last of them who would be passed over, by reason. */
  skipped: SkippedCounts,
  /** The key to invite with (BatchRequest.idempotencyKey): two presses on one preview make one batch. */
  idempotencyKey: z.string(),
});
export type LaunchPreview = z.infer<typeof LaunchPreview>;

/** POST /api/console/launch/batches's body. */
export const BatchRequest = ActionRequest.extend({
  count: BatchCount,
  /**
   * The client's key for this press (a UUID): the same key again (a double press, a retried request, a second
   * operator's page showing the same preview) answers the batch it made instead of making another.
   */
  idempotencyKey: z
    .string({ error: "give an idempotency key." })
    .trim()
    .min(1, { error: "give an idempotency key." })
    .max(IDEMPOTENCY_KEY_MAX_LENGTH, { error: `an idempotency key has at most ${IDEMPOTENCY_KEY_MAX_LENGTH} characters.` })
    .refine((key) => !key.startsWith(SCHEDULE_KEY_PREFIX), { error: `keys starting ${SCHEDULE_KEY_PREFIX} are the schedule's.` }),
});
export type BatchRequest = z.input<typeof BatchRequest>;

/** One batch with its progress. */
export const LaunchBatch = z.object({
  id: z.string(),
  createdAt: Timestamp,
  operator: z.string(),
  reason: z.string(),
  requested: Count,
  /** Invitations made so far. */
  invited: Count,
  /** Of them: events on their way, taken by Klaviyo, refused. */
  queued: Count,
  sent: Count,
  failed: Count,
  skipped: SkippedCounts,
  /** choosing: invitations still being made; sending: all made; done: each sent or failed. */
  state: z.enum(["choosing", "sending", "done"]),
  /** When an operator paused it (it invites nobody more and holds its unsent events), or null while it runs. */
  pausedAt: Timestamp.nullable(),
});
export type LaunchBatch = z.infer<typeof LaunchBatch>;

/** A batch's id in its action's path (`…/batches/:id/pause`). */
export const BatchParams = z.object({ id: z.string().min(1).max(IDEMPOTENCY_KEY_MAX_LENGTH) });

/** POST …/batches/:id/pause and …/resume: the batch now, and the audit entry. */
export const BatchActionAnswer = z.object({ batch: LaunchBatch, audit: AuditEntry });
export type BatchActionAnswer = z.infer<typeof BatchActionAnswer>;

/** The schedule: up to `dailyCount` invited each day at `timeOfDay` (the site's time zone) until paused. */
export const LaunchSchedule = z.object({
  dailyCount: Count,
  /** HH:MM, 24-hour. */
  timeOfDay: z.string(),
  paused: z.boolean(),
  /** The next run (ISO 8601 UTC), or null while paused. */
  nextRunAt: Timestamp.nullable(),
  updatedAt: Timestamp,
  operator: z.string(),
  reason: z.string(),
});
export type LaunchSchedule = z.infer<typeof LaunchSchedule>;

/** PUT /api/console/launch/schedule's body: the whole schedule, pausing it with `paused: true`. */
export const ScheduleRequest = ActionRequest.extend({
  dailyCount: BatchCount,
  timeOfDay: z
    .string({ error: "give a time of day as HH:MM." })
    .regex(TIME_OF_DAY_PATTERN, { error: "give a time of day as HH:MM, 24-hour, like 09:00." })
    .meta({ description: "HH:MM, 24-hour, in the site's time zone." }),
  paused: z.boolean({ error: "say whether the schedule is paused (true or false)." }),
});
export type ScheduleRequest = z.input<typeof ScheduleRequest>;

/** PUT /api/console/launch/schedule: the schedule now, and the audit entry. */
export const ScheduleAnswer = z.object({ schedule: LaunchSchedule, audit: AuditEntry });
export type ScheduleAnswer = z.infer<typeof ScheduleAnswer>;

/**
 * One local day of the funnel: people who joined the line (`waiting`) and invitations that reached each state
 * that day.
 */
export const LaunchDay = z.object({
  /** YYYY-MM-DD in the site's time zone. */
  date: z.string(),
  ...(Object.fromEntries(PERSON_LAUNCH_STATES.map((state) => [state, Count])) as Record<
    (typeof PERSON_LAUNCH_STATES)[number],
    typeof Count
  >),
});
export type LaunchDay = z.infer<typeof LaunchDay>;

/** POST /api/console/launch/batches: the batch (201 made now, 200 the one this idempotency key made before). */
export const BatchAnswer = z.object({ batch: LaunchBatch, audit: AuditEntry.nullable() });
export type BatchAnswer = z.infer<typeof BatchAnswer>;

/** GET /api/console/launch: people by launch state now, and the latest batches. */
export const LaunchAnswer = z.object({
  funnel: z.object(
    Object.fromEntries(PERSON_LAUNCH_STATES.map((state) => [state, Count])) as Record<(typeof PERSON_LAUNCH_STATES)[number], typeof Count>,
  ),
  /** The last LAUNCH_FUNNEL_DAYS days in order, today last, days without any change included. */
  days: z.array(LaunchDay),
  /** The IANA-style name of the time zone the days and the schedule's time are in. */
  timeZone: z.string(),
  /** Newest first, at most LAUNCH_BATCHES_SHOWN. */
  batches: z.array(LaunchBatch),
  /** null until an operator sets one. */
  schedule: LaunchSchedule.nullable(),
});
export type LaunchAnswer = z.infer<typeof LaunchAnswer>;

/** One invitation as the console shows it. */
export const Invitation = z.object({
  id: z.string(),
  state: z.enum(INVITATION_STATES),
  /** Place in line when invited. */
  place: Place,
  batchId: z.string().nullable(),
  invitedAt: Timestamp,
  expiresAt: Timestamp,
  acceptedAt: Timestamp.nullable(),
  expiredAt: Timestamp.nullable(),
  revokedAt: Timestamp.nullable(),
  send: z.object({ state: z.enum(SEND_STATES), attempts: Count, error: z.string().nullable(), sentAt: Timestamp.nullable() }),
});
export type Invitation = z.infer<typeof Invitation>;

/** GET /api/console/people/:id/invitation: the person's latest invitation, or null while they wait. */
export const PersonInvitationAnswer = z.object({ invitation: Invitation.nullable() });
export type PersonInvitationAnswer = z.infer<typeof PersonInvitationAnswer>;

/** POST /api/console/people/:id/invite and …/revoke: the person's invitation now, and the audit entry. */
export const InvitationAnswer = z.object({ invitation: Invitation, audit: AuditEntry });
export type InvitationAnswer = z.infer<typeof InvitationAnswer>;

/** POST /api/invitations/check-in's body: the token of the invitation link (`?invite=<token>`). */
export const CheckInRequest = z.object({
  token: z.string({ error: "give the invitation's token." }).meta({ description: "The `invite` parameter of the invitation link." }),
});
export type CheckInRequest = z.input<typeof CheckInRequest>;

/** POST /api/invitations/check-in: the invitation is accepted now; who it was for, to pre-fill the product's sign-up. */
export const CheckInAnswer = z.object({
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  /** Their place in line when invited. */
  place: Place,
});
export type CheckInAnswer = z.infer<typeof CheckInAnswer>;
