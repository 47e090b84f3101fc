/**
 * The referral program's two links, written by the service and read by the pages. The status
 * token sits in the fragment because a browser never sends one to a server (request or Referer).
 * No dependencies, so the browser, the build and the Worker all import it.
 */
import { HOME_PATH, STATUS_PATH } from "./routes";

/** `<siteUrl>/?ref=<code>` */
export const REFERRAL_PARAMETER = "ref";

/** `<siteUrl>/status/#t=<token>` */
export const STATUS_TOKEN_PARAMETER = "t";

/**
 * A person's referral link.
 * @param siteUrl e.g. `https://example.com` (a trailing slash is dropped)
 * @returns e.g. `https://example.com/?ref=K7QM2XPD`
 */
export function referralLink(siteUrl: string, code: string): string {
  return `${siteUrl.replace(/\/+$/, "")}${HOME_PATH}?${REFERRAL_PARAMETER}=${encodeURIComponent(code)}`;
}

/**
 * A person's status link.
 * @param siteUrl a trailing slash is dropped
 * @returns e.g. `https://example.com/status/#t=Vb3…`
 */
export function statusLink(siteUrl: string, token: string): string {
  return `${siteUrl.replace(/\/+$/, "")}${STATUS_PATH}#${STATUS_TOKEN_PARAMETER}=${encodeURIComponent(token)}`;
}
