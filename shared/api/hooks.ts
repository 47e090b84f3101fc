/**
 * Klaviyo's confirmation webhook (POST /api/hooks/klaviyo/confirmed) as zod schemas: the body a Klaviyo flow sends
 * (worker/src/hooks/klaviyo-webhook.ts: WEBHOOK_BODY_TEMPLATE) and the answer. Not a browser's request: the shared
 * secret, sent as `Authorization: Bearer`, is the check.
 */
import { z } from "zod";

/** The webhook's path on the site's origin. */
export const CONFIRMATION_WEBHOOK_PATH = "/api/hooks/klaviyo/confirmed";

/** The body the flow sends: the profile's address (Klaviyo renders "" for a profile without one). */
export const ConfirmationRequest = z.object({ email: z.string().trim().min(1, { error: "email is required." }) });
export type ConfirmationRequest = z.infer<typeof ConfirmationRequest>;

/** 202 `{ matched: true }` once the person is queued for the check; 200 `{ matched: false }` for an address not on the list. */
export const ConfirmationAnswer = z.object({ matched: z.boolean() });
export type ConfirmationAnswer = z.infer<typeof ConfirmationAnswer>;
