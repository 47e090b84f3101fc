/**
 * Disposable (throwaway) address domains, from the maintained `disposable-email-domains` package: its exact list
 * (about 120,000 domains, sorted) and its wildcard list (domains whose every subdomain is disposable).
 */
import domains from "disposable-email-domains/index.json";
import wildcards from "disposable-email-domains/wildcard.json";
import { canonicalAddress } from "../../../shared/email-address";

/**
 * Whether a sorted list holds a value: a binary search, so that no lookup structure is built from the list when an
 * isolate starts (a Set of it costs tens of ms of CPU; the package keeps the list sorted, and a unit test holds it to that).
 */
function sortedIncludes(list: readonly string[], value: string): boolean {
  let low = 0;
  let high = list.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const entry = list[middle];
    if (entry === value) return true;
    if (entry < value) low = middle + 1;
    else high = middle - 1;
  }
  return false;
}

/**
 * Whether an address's domain is a disposable-mail domain: its canonical domain (in ASCII, without a trailing dot:
 * shared/email-address.ts, so `a@mailinator.com.` is `mailinator.com`) on the exact list, or that domain or any parent
 * of it on the wildcard list (`x.33m.co` and `33m.co` both are).
 * @param email a trimmed address that passed the shared rules
 */
export function isDisposableAddress(email: string): boolean {
  const canonical = canonicalAddress(email);
  const domain = canonical.ok ? canonical.domain : email.slice(email.lastIndexOf("@") + 1).toLowerCase();
  if (sortedIncludes(domains, domain)) return true;
  const labels = domain.split(".");
  for (let index = 0; index < labels.length - 1; index += 1) {
    if (wildcards.includes(labels.slice(index).join("."))) return true;
  }
  return false;
}
