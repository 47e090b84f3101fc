/**
 * The deploy's double opt-in check (docs/deploy.md "Deploy to Cloudflare"): with referrals counted after confirmation, Klaviyo's list must
 * be double opt-in, or the "added to list" flow fires at signup and every referral counts at once. Read from
 * Klaviyo's API (`GET /api/lists/{id}`) with the private API key of the operator's shell, since a Worker secret
 * cannot be read back. A module of its own so that a test calls it against the stand-in without deploying.
 */
import type { ServiceSettings } from "../../shared/service-settings";
import { DEFAULT_KLAVIYO_API_URL, listOptInProcess } from "../../worker/src/delivery/klaviyo";

/** Where Klaviyo's double opt-in is switched on, in Klaviyo's own words. */
const HOW_TO_SWITCH = "In Klaviyo: Lists & segments → the list → List settings → Opt-in process → Double opt-in, save, then deploy again";

/** The operator's shell variables the deploy's Klaviyo checks read (this one and data-privacy-scope.ts). */
export interface KlaviyoShellEnvironment {
  /** The private API key (`pk_…`; this check needs scope `lists:read`). */
  KLAVIYO_PRIVATE_API_KEY?: string;
  /** Klaviyo's API (default https://a.klaviyo.com): a stand-in in tests. */
  KLAVIYO_API_URL?: string;
}

/**
 * Why the build's list may not be deployed, or null when it may: the list is double opt-in, or no referral waits for
 * a confirmation (the program off, or `countAfter: signup`), in which case Klaviyo is not asked.
 * @param fetcher the fetch to use (Node's global by default)
 * @returns a refusal written for the operator (what is wrong, why it matters, how to fix it), or null; never throws
 */
export async function doubleOptInProblem(
  settings: Pick<ServiceSettings, "listId" | "referrals">,
  environment: KlaviyoShellEnvironment,
  fetcher: typeof fetch = fetch,
): Promise<string | null> {
  if (!settings.referrals.enabled || settings.referrals.countAfter !== "confirmation") return null;
  const list = `Klaviyo list ${settings.listId} (provider.listId)`;
  const why = "referrals.countAfter is confirmation, so a referral must wait until the friend confirms by e-mail";
  const privateApiKey = environment.KLAVIYO_PRIVATE_API_KEY?.trim();
  if (!privateApiKey)
    return (
      `KLAVIYO_PRIVATE_API_KEY is not set in this shell. ${why}, and the deploy reads from Klaviyo's API whether ${list} ` +
      "is double opt-in; a Worker secret cannot be read back, so give the deploy the key itself:\n" +
      "  KLAVIYO_PRIVATE_API_KEY=pk_… npm run deploy\n(the Worker's key, or any private key of the account with the lists:read scope)."
    );
  const apiUrl = environment.KLAVIYO_API_URL?.trim() || DEFAULT_KLAVIYO_API_URL;
  const outcome = await listOptInProcess(settings.listId, { apiUrl, privateApiKey }, fetcher);
  switch (outcome.kind) {
    case "double_opt_in":
      return null;
    case "single_opt_in":
      return (
        `${list} is single opt-in. ${why}; on a single opt-in list Klaviyo adds everyone at once, so the "added to list" ` +
        `flow would confirm every signup as it is made and count every referral at signup. ${HOW_TO_SWITCH}.`
      );
    case "throttled":
      return `Klaviyo throttled the read of ${list} (${outcome.reason}); nothing was deployed. Try again in ${outcome.retryAfterS ?? 60} s.`;
    case "failed":
      if (outcome.status === 404)
        return (
          `${list} does not exist in the Klaviyo account of this private API key. Check provider.listId in content/site.yaml ` +
          "(Klaviyo: Lists & segments → the list → Settings → List ID) and that the key belongs to the same account."
        );
      if (outcome.status === 401 || outcome.status === 403)
        return `Klaviyo refused the private API key in KLAVIYO_PRIVATE_API_KEY (${outcome.reason}): it must be a valid key of the list's account with the lists:read scope.`;
      return `Could not read ${list} from Klaviyo (${outcome.reason}); nothing was deployed. Try again.`;
  }
}
