/**
 * A person's standing as the API answers it (a signup's answer and GET /api/status): the shape the pages read
 * (src/referrals/standing.ts: standingIn), with the links built from the build's site address.
 */
import type { StandingAnswer } from "../../../shared/contract";
import { referralLink, statusLink } from "../../../shared/referral-links";
import type { ServiceSettings } from "../../../shared/service-settings";
import { entriesOf } from "./standing";

/**
 * The standing members of an answer.
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
