/**
 * Disposable (throwaway) address domains, from the maintained `disposable-email-domains` package: its sorted exact
 * list and its wildcard list (domains whose every subdomain is disposable).
 */
import domains from "disposable-email-domains/index.json";
import wildcards from "disposable-email-domains/wildcard.json";
import { canonicalAddress } from "../../../shared/email-address";
import { sortedIncludes } from "./sorted-list";

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
