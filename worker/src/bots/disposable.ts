/**
 * Disposable (throwaway) address domains, from the maintained `disposable-email-domains` package: its sorted exact
 * list and its wildcard list (domains whose every subdomain is disposable).
 */
import domains from "disposable-email-domains/index.json";
import wildcards from "disposable-email-domains/wildcard.json";

/**
 * Whether a sorted list holds a value: a binary search, so no Set of the long list is built when an isolate starts
 * (that costs CPU on every cold start). The package keeps the list sorted, and a unit test holds it to that.
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
 * Whether an address's domain is a disposable-mail domain: the domain itself on the exact list, or the domain or
 * any parent of it on the wildcard list (`x.33m.co` and `33m.co` both are).
 * @param email a trimmed address that passed the shared pattern
 */
export function isDisposableAddress(email: string): boolean {
  const domain = email.slice(email.lastIndexOf("@") + 1).toLowerCase();
  if (sortedIncludes(domains, domain)) return true;
  const labels = domain.split(".");
  for (let index = 0; index < labels.length - 1; index += 1) {
    if (wildcards.includes(labels.slice(index).join("."))) return true;
  }
  return false;
}
