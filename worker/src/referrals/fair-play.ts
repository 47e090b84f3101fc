/**
 * The referral program's fair-play limits and flags (docs/referrals.md: Fair play). A cheap cheater makes addresses on a
 * catch-all domain, solves Turnstile through a service and clicks the double opt-in links, so a referral is never
 * refused outright: past a limit it is stored but held for the operator's review, and what looks odd is flagged.
 */
import { z } from "zod";
import type { ServiceEnv } from "../env";

// The words themselves are shared with the console, which names and explains them to the operator.
export { FLAGS, HOLDS } from "../../../shared/fair-play-marks";

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
