/**
 * The status token: in the status link's fragment, then kept for the visit in sessionStorage once the page has moved it
 * out of the address bar. It leaves the browser only as the status requests' `Authorization: Bearer`.
 */

import { STATUS_TOKEN_PARAMETER } from "../../shared/referral-links";
import { keep, readKept, type VisitStorage } from "./storage";

export { STATUS_TOKEN_PARAMETER };

/** RFC 6750 §2.1 `b64token`, at most 512 characters (far above the service's tokens): a mangled fragment is never sent as a header. */
const BEARER_TOKEN_FORM = /^[A-Za-z0-9\-._~+/]{1,512}=*$/;

/**
 * The token in a status page address's fragment. Read by hand rather than with
 * URLSearchParams, which would turn a `+` of the token into a space.
 * @param hash `location.hash`, e.g. "#t=Vb3…"
 * @returns the token, or null when the fragment has none or it cannot be one
 */
export function statusTokenIn(hash: string): string | null {
  for (const part of hash.replace(/^#/, "").split("&")) {
    const [name, ...value] = part.split("=");
    if (name !== STATUS_TOKEN_PARAMETER) continue;
    let token: string;
    try {
      token = decodeURIComponent(value.join("=")).trim();
    } catch {
      return null;
    }
    return BEARER_TOKEN_FORM.test(token) ? token : null;
  }
  return null;
}

/** Where the status page keeps the token for the visit (sessionStorage), once it is out of the address bar. */
export const STATUS_TOKEN_KEY = "pickfund.statusToken";

/** Keep the token for the visit; a browser that refuses storage keeps nothing (a reload then asks for the link again). */
export function keepStatusToken(token: string, storage?: VisitStorage | null): void {
  keep(STATUS_TOKEN_KEY, token, storage);
}

/**
 * The token kept for the visit, checked again as the fragment's is.
 * @returns the token, or null when none is kept or it cannot be one
 */
export function keptStatusToken(storage?: VisitStorage | null): string | null {
  const kept = readKept(STATUS_TOKEN_KEY, storage);
  return kept !== null && BEARER_TOKEN_FORM.test(kept) ? kept : null;
}
