/**
 * The two links of the referral program, as the waitlist service writes them and the pages read them:
 * - a referral link, `<siteUrl>/?ref=<code>`: the query parameter a friend's visit brings;
 * - a status link, `<siteUrl>/status/#t=<token>`: the secret stays in the fragment, which a browser never sends to a
 *   server (in a request or a Referer).
 * No dependencies, so the browser, the build and the Worker all import it.
 */
import { HOME_PATH, STATUS_PATH } from "./routes";

/** The query parameter of a referral link. */
export const REFERRAL_PARAMETER = "ref";

/** The fragment parameter of a status link that carries the token. */
export const STATUS_TOKEN_PARAMETER = "t";

/**
 * A person's referral link.
 * @param siteUrl the site's public address, e.g. `https://example.com` (a trailing slash is dropped)
 * @param code their referral code
 * @returns e.g. `https://example.com/?ref=K7QM2XPD`
 */
export function referralLink(siteUrl: string, code: string): string {
  return `${siteUrl.replace(/\/+$/, "")}${HOME_PATH}?${REFERRAL_PARAMETER}=${encodeURIComponent(code)}`;
}

/**
 * A person's status link.
 * @param siteUrl the site's public address (a trailing slash is dropped)
 * @param token their status token
 * @returns e.g. `https://example.com/status/#t=Vb3…`
 */
export function statusLink(siteUrl: string, token: string): string {
  return `${siteUrl.replace(/\/+$/, "")}${STATUS_PATH}#${STATUS_TOKEN_PARAMETER}=${encodeURIComponent(token)}`;
}
