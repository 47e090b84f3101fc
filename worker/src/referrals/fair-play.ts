/**
 * The referral program's fair-play limits and flags (README: Fair play). A cheap cheater makes addresses on a
 * catch-all domain, solves Turnstile through a service and clicks the double opt-in links, so a referral is never
 * refused outright: past a limit it is stored but held for the operator's review, and what looks odd is flagged.
 */
import { z } from "zod";
import type { ServiceEnv } from "../env";

/** Flag words of the `flags` column (space-separated), for the operator's review before a draw. */
export const FLAGS = {
  /** The friend signed up from the referrer's own network (IPv4 address or IPv6 /64). */
  sameIpAsReferrer: "same_ip_as_referrer",
  /** The friend signed up from the network of an earlier friend of the same referrer. */
  sameIpAsOtherReferral: "same_ip_as_other_referral",
  /** The referrer has several friends on one domain that is not a consumer provider's (a catch-all domain). */
  domainCluster: "domain_cluster",
  /** The referrer's friends arrived in a burst. */
  burst: "burst",
} as const;

/** Why a referral is held for review instead of counted (the `referral_hold` column). */
export const HOLDS = {
  /** The code brought more referred signups within HOLD_WINDOW_MS than its limit. */
  codeLimit: "code_limit",
  /** The friend's domain brought more referred signups within HOLD_WINDOW_MS than its limit. */
  domainLimit: "domain_limit",
} as const;

/** The window both limits count in (ms). */
export const HOLD_WINDOW_MS = 60 * 60 * 1000;

/** Referrals of one referrer within BURST_WINDOW_MS that make a burst: more than a person shares by hand. */
export const BURST_REFERRALS = 5;
export const BURST_WINDOW_MS = 10 * 60 * 1000;

/** Referrals of one referrer from one non-consumer domain that make a cluster: a team shares a domain, a bot many. */
export const DOMAIN_CLUSTER_REFERRALS = 3;

/** The limits when wrangler.jsonc's vars leave them out. */
const DEFAULT_LIMITS = { perCodePerHour: 20, perDomainPerHour: 10 } as const;

/** The per-hour limits of referred signups, per referral code and per address domain. */
export interface FairPlayLimits {
  perCodePerHour: number;
  perDomainPerHour: number;
}

const Limit = z.coerce.number().int().min(1);

/**
 * The limits from the Worker's vars REFERRALS_PER_CODE_PER_HOUR and REFERRALS_PER_DOMAIN_PER_HOUR (unset or "": the
 * defaults).
 * @returns the limits, or the name of a var that is not a whole number of at least 1
 */
export function fairPlayLimits(env: ServiceEnv): FairPlayLimits | { invalid: string } {
  const read = (name: "REFERRALS_PER_CODE_PER_HOUR" | "REFERRALS_PER_DOMAIN_PER_HOUR", fallback: number) => {
    const value = env[name];
    if (value === undefined || value === "") return fallback;
    const parsed = Limit.safeParse(value);
    return parsed.success ? parsed.data : null;
  };
  const perCodePerHour = read("REFERRALS_PER_CODE_PER_HOUR", DEFAULT_LIMITS.perCodePerHour);
  if (perCodePerHour === null) return { invalid: "REFERRALS_PER_CODE_PER_HOUR" };
  const perDomainPerHour = read("REFERRALS_PER_DOMAIN_PER_HOUR", DEFAULT_LIMITS.perDomainPerHour);
  if (perDomainPerHour === null) return { invalid: "REFERRALS_PER_DOMAIN_PER_HOUR" };
  return { perCodePerHour, perDomainPerHour };
}
