/**
 * A person's standing as the API answers it (a signup's answer and GET /api/status): the shape the pages read
 * (src/referrals/standing.ts: standingIn), with the links built from the build's site address.
 */
import { referralLink, statusLink } from "../../../src/referrals/links";
import type { ServiceSettings } from "../../../src/signup/service-settings";
import { entriesOf } from "./standing";

/** The referral members of an answer. */
export interface StandingAnswer {
  referralCode: string;
  /** `<siteUrl>/?ref=<code>` */
  referralUrl: string;
  /** Place in line, 1 = first. */
  position: number;
  /** Counted referrals. */
  referrals: number;
  /** Giveaway entries: 1 + entriesPerReferral × referrals. */
  entries: number;
  /** `<siteUrl>/status/#t=<token>`; absent when the answer cannot carry the token (only its hash is stored). */
  statusUrl?: string;
}

/**
 * The standing members of an answer.
 * @param settings the build's settings (siteUrl, referrals.entriesPerReferral)
 * @param person the person's code and counted referrals
 * @param position their place in line (rank.ts: positionOf)
 * @param statusToken their status token, or null to leave statusUrl out
 */
export function standingAnswer(
  settings: ServiceSettings,
  person: { referralCode: string; referrals: number },
  position: number,
  statusToken: string | null,
): StandingAnswer {
  return {
    referralCode: person.referralCode,
    referralUrl: referralLink(settings.siteUrl, person.referralCode),
    position,
    referrals: person.referrals,
    entries: entriesOf(person.referrals, settings.referrals.entriesPerReferral),
    ...(statusToken === null ? {} : { statusUrl: statusLink(settings.siteUrl, statusToken) }),
  };
}
