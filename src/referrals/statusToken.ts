/**
 * The status page's secret: the token in its address's fragment (`/status/#t=<token>`),
 * which a browser never sends to a server, in a request or in a Referer. It is sent only
 * as the `Authorization: Bearer` header of the page's own status request.
 */

import { STATUS_TOKEN_PARAMETER } from "../../shared/referral-links";

export { STATUS_TOKEN_PARAMETER };

/**
 * What a bearer token may be (RFC 6750, section 2.1, `b64token`), at most 512 characters: a
 * mangled fragment is then never sent as a header. The service's tokens (128 random bits or
 * more, URL-safe) are far shorter.
 */
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
