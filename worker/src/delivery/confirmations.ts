/**
 * The queue's messages about a person rather than a signup's delivery: `confirm` (Klaviyo's webhook said they
 * confirmed; Klaviyo's API is asked before anything counts, so a leaked webhook secret confirms nobody) and `already`
 * (someone signed up again with their address; they get a status link by e-mail, at most once a day, the signup's
 * batch having granted it: store/referrals.ts, alreadyNoticeGrant).
 */
import { statusLink } from "../../../shared/referral-links";
import type { ServiceSettings } from "../../../shared/service-settings";
import type { DeliveryMessage, ServiceEnv } from "../env";
import { errorName, log } from "../log";
import { hashStatusToken, newStatusToken } from "../referrals/codes";
import type { DeliveryRow } from "../store/delivery";
import { claimAlreadyNotice, confirmPerson, settleAlreadyNotice } from "../store/referrals";
import { demoStatusLink } from "./demo";
import { listMembership, updateKlaviyoProfile } from "./klaviyo";
import { ACK, type Attempt, type KlaviyoTarget, profileWriteAttempt, retryAfterError, retryDelayS, skippedAttempt } from "./messages";

/**
 * Check a confirmation with Klaviyo's API (is the person on the list? With double opt-in they join it once they
 * confirm), then record it and count the referrals it completes, and queue the profile updates of the people whose
 * standing changed. Without a private API key (local runs only: production refuses to run without it) the hint is
 * taken as it is.
 */
export async function attemptConfirmation(
  message: Message,
  signupId: string,
  row: DeliveryRow | undefined,
  klaviyo: KlaviyoTarget | null,
  settings: ServiceSettings,
  env: ServiceEnv,
): Promise<Attempt> {
  const skipped = (reason: string) => skippedAttempt(message, signupId, "confirmation", reason);
  if (!row) return skipped("no such signup");
  if (klaviyo) {
    const membership = await listMembership(row.email, klaviyo.settings.listId, klaviyo.account);
    if (membership.kind === "absent") return skipped("not on the list in Klaviyo");
    if (membership.kind !== "member") {
      const delayS = retryDelayS(membership, message.attempts);
      return {
        message,
        signupId,
        fate: { kind: "retry", delayS },
        line: ["confirmation_retry", { id: signupId, reason: membership.reason, delayS }],
      };
    }
  }
  const program = settings.referrals;
  try {
    const confirmed = await confirmPerson(env.DB, signupId, new Date().toISOString(), {
      placesPerReferral: program.placesPerReferral,
      confirmed: program.enabled && program.countAfter === "confirmation",
    });
    const updates: DeliveryMessage[] = [];
    if (confirmed.creditedReferrerId) updates.push({ signupId: confirmed.creditedReferrerId, kind: "profile" });
    if (confirmed.friendsCounted > 0) updates.push({ signupId, kind: "profile" });
    if (updates.length > 0) await env.DELIVERY.sendBatch(updates.map((body) => ({ body })));
    return {
      message,
      signupId,
      fate: ACK,
      line: [
        "confirmation_recorded",
        {
          id: signupId,
          verified: klaviyo !== null,
          referralCounted: confirmed.creditedReferrerId !== null,
          friendsCounted: confirmed.friendsCounted,
        },
      ],
    };
  } catch (error) {
    return retryAfterError(message, signupId, "confirmation", error);
  }
}

/**
 * Tell a person already on the list, by e-mail, that someone signed up again with their address: their profile gets a
 * fresh `waitlist_status_url` and `waitlist_signed_up_again_at`, which a Klaviyo flow sends (docs/referrals.md: The
 * status link, and signing up again). Their link in use keeps working until the fresh one is first used.
 * Without a private API key, in development, the fresh link is logged instead (`demo_status_link`, as demo
 * delivery logs a newcomer's). Skipped while their welcome is still on its way (it carries the link), for an address
 * Klaviyo refused, without a private API key in production, and when they were told within a day.
 * @param demo the build's settings when demo delivery stands in for e-mail (development), else null
 */
export async function attemptAlreadyNotice(
  message: Message,
  signupId: string,
  row: DeliveryRow | undefined,
  klaviyo: KlaviyoTarget | null,
  db: D1Database,
  demo: ServiceSettings | null,
): Promise<Attempt> {
  const skipped = (reason: string) => skippedAttempt(message, signupId, "already_notice", reason);
  if (!row) return skipped("no such signup");
  if (row.delivery_state === "pending") return skipped("welcome not delivered yet");
  if (row.delivery_state === "refused") return skipped("address refused by Klaviyo");
  if (!klaviyo) return demo ? demoAlreadyNotice(message, row, db, demo) : skipped("demo delivery");
  const now = new Date().toISOString();
  let token: string | null;
  try {
    const fresh = newStatusToken();
    token = await claimAlreadyNotice(db, signupId, { token: fresh, hash: await hashStatusToken(fresh) }, now);
  } catch (error) {
    return retryAfterError(message, signupId, "already_notice", error);
  }
  if (token === null) return skipped("told within a day");
  const properties = { waitlist_status_url: statusLink(klaviyo.settings.siteUrl, token), waitlist_signed_up_again_at: now };
  const outcome = await updateKlaviyoProfile({ email: row.email, properties }, klaviyo.account);
  if (outcome.kind === "delivered") {
    try {
      await settleAlreadyNotice(db, signupId, now);
    } catch (error) {
      // Sent all the same; the link stays kept in the row until a later notice settles it.
      log("already_notice_unsettled", { id: signupId, reason: errorName(error) });
    }
  }
  // Klaviyo refusing the address is not worth a retry: the person's welcome reached them, or it was refused too.
  return { ...profileWriteAttempt(message, signupId, "already_notice", outcome, ACK), wroteTo: row.email };
}

/**
 * The "already on the list" notice of a local run: a fresh status link claimed and settled as a sent notice is, then
 * logged as `demo_status_link` (the old link works until the new one is used, as after a real notice).
 */
async function demoAlreadyNotice(message: Message, row: DeliveryRow, db: D1Database, settings: ServiceSettings): Promise<Attempt> {
  const now = new Date().toISOString();
  let token: string | null;
  try {
    const fresh = newStatusToken();
    token = await claimAlreadyNotice(db, row.id, { token: fresh, hash: await hashStatusToken(fresh) }, now);
    if (token !== null) await settleAlreadyNotice(db, row.id, now);
  } catch (error) {
    return retryAfterError(message, row.id, "already_notice", error);
  }
  if (token === null) return skippedAttempt(message, row.id, "already_notice", "told within a day");
  const links = demoStatusLink({ referral_code: row.referral_code, status_token: token }, settings);
  if (links) log("demo_status_link", { id: row.id, ...links });
  return { message, signupId: row.id, fate: ACK, line: ["already_notice_demo", { id: row.id }] };
}
