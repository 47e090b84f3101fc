/**
 * The deploy's check of the Klaviyo key's Data Privacy scope (docs/deploy.md "Deploy to Cloudflare"): an erase asks
 * Klaviyo to delete the person's profile (Request Profile Deletion, scope `data-privacy:write`), and Klaviyo answers a
 * key without that scope 403, so every erasure would stay owed. The Data Privacy API has that one operation and no
 * read, so the check asks for one deletion that deletes nobody: every profile with SCOPE_CHECK_ADDRESS, an address of
 * example.com, the domain RFC 2606 reserves, which no person on the list can hold. A module of its own so that a
 * test calls it against the stand-in without deploying.
 */
import { DEFAULT_KLAVIYO_API_URL, requestProfileDeletion } from "../../worker/src/delivery/klaviyo";
import type { KlaviyoShellEnvironment } from "./double-opt-in";

/** The address whose profiles the check asks Klaviyo to delete: on a reserved domain, nobody's. */
export const SCOPE_CHECK_ADDRESS = "waitlist-deploy-scope-check@example.com";

/** The fix in Klaviyo, which never widens an existing key's scopes: a new key with the scope. */
const HOW_TO_FIX =
  "In Klaviyo: Settings → API keys → Create Private API Key, with Data Privacy full access besides the scopes the " +
  "Worker's key has; then `npx wrangler secret put KLAVIYO_PRIVATE_API_KEY` with it, and deploy again with it in " +
  "KLAVIYO_PRIVATE_API_KEY";

/**
 * Why the Worker's Klaviyo key may not be deployed, or null when Klaviyo took the check's deletion request (202).
 * @param fetcher the fetch to use (Node's global by default)
 * @returns a refusal written for the operator (what is wrong, why it matters, how to fix it), or null; never throws
 */
export async function dataPrivacyScopeProblem(environment: KlaviyoShellEnvironment, fetcher: typeof fetch = fetch): Promise<string | null> {
  const privateApiKey = environment.KLAVIYO_PRIVATE_API_KEY?.trim();
  if (!privateApiKey)
    return (
      "KLAVIYO_PRIVATE_API_KEY is not set in this shell. The deploy checks that the Worker's Klaviyo key may delete " +
      "profiles (an erase asks Klaviyo to), and a Worker secret cannot be read back, so give the deploy the same key:\n" +
      "  KLAVIYO_PRIVATE_API_KEY=pk_… npm run deploy"
    );
  const apiUrl = environment.KLAVIYO_API_URL?.trim() || DEFAULT_KLAVIYO_API_URL;
  const outcome = await requestProfileDeletion(SCOPE_CHECK_ADDRESS, { apiUrl, privateApiKey }, fetcher);
  switch (outcome.kind) {
    case "delivered":
      return null;
    case "throttled":
      return `Klaviyo throttled the Data Privacy check (${outcome.reason}); nothing was deployed. Try again in ${outcome.retryAfterS ?? 60} s.`;
    case "refused":
    case "failed":
      if (outcome.status === 403)
        return (
          `The Klaviyo key in KLAVIYO_PRIVATE_API_KEY lacks the data-privacy:write scope (Klaviyo answered ${outcome.reason}): ` +
          "every erase would leave the person's profile in Klaviyo, its deletion refused and owed. " +
          `${HOW_TO_FIX}.`
        );
      if (outcome.status === 401)
        return `Klaviyo refused the private API key in KLAVIYO_PRIVATE_API_KEY (${outcome.reason}): give the deploy the Worker's own key.`;
      return `Could not check the Klaviyo key's Data Privacy scope (${outcome.reason}); nothing was deployed. Try again.`;
  }
}
