/**
 * Free consumer mail providers (the maintained `free-email-domains` list): domains where many unrelated people have
 * an address, so many signups from one of them say nothing about a cheater. Any other domain belongs to someone, and
 * a run of referrals from it (a catch-all domain makes endless addresses) is held or flagged for review.
 */
import domains from "free-email-domains/domains.json";
import { sortedIncludes } from "./sorted-list";

/** Whether a canonical domain (lower case, ASCII) is a free consumer mail provider's. */
export function isConsumerDomain(domain: string): boolean {
  return sortedIncludes(domains, domain);
}
