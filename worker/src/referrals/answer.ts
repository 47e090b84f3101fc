/**
 * A person's standing as GET /api/status answers it: the shape the status page reads (src/referrals/standing.ts:
 * standingIn), with the links built from the build's site address. A signup's answer never carries one.
 */
import { referralLink, statusLink } from "../../../shared/referral-links";
import type { ServiceSettings } from "../../../shared/service-settings";
import { entriesOf } from "./standing";
import type { StandingAnswer } from "../../../shared/api/referrals";

/**
 * The standing members of an answer.
 * @param position their place in line (rank.ts: positionOf)
 * @param statusToken the status token the request brought, for statusUrl
 */
export function standingAnswer(
  settings: ServiceSettings,
  person: { referralCode: string; referrals: number },
  position: number,
  statusToken: string,
): StandingAnswer {
  return {
    referralCode: person.referralCode,
    referralUrl: referralLink(settings.siteUrl, person.referralCode),
    position,
    referrals: person.referrals,
    entries: entriesOf(person.referrals, settings.referrals.entriesPerReferral),
    statusUrl: statusLink(settings.siteUrl, statusToken),
  };
}
