/**
 * Where invitation links may lead. The content's `launch.productSignupUrl` is an editor's file; the Worker var
 * PRODUCT_SIGNUP_ORIGIN is set by whoever deploys. A link leaves only when the URL's origin is that var (both empty
 * while the product has no sign-up page and links lead to this site's own /invite/ page), so a changed content file
 * never sends invitation codes to another site: the Worker builds no link (tokens.ts) and `npm run deploy` refuses
 * the build while they differ. docs/operators.md: Launch.
 */

/** The two origins, when they differ. */
export interface ProductOriginMismatch {
  /** The content's product sign-up URL's origin, e.g. "https://app.example.com"; "" for none. */
  content: string;
  /** PRODUCT_SIGNUP_ORIGIN as set, trimmed, without a trailing slash; "" for none. */
  allowed: string;
}

/** A URL's origin, "" for empty text; text that is no URL is returned as it is (it equals no origin). */
function originOf(text: string): string {
  const trimmed = text.trim();
  if (trimmed === "") return "";
  try {
    return new URL(trimmed).origin;
  } catch {
    return trimmed;
  }
}

/**
 * Whether the content's product sign-up URL leads to PRODUCT_SIGNUP_ORIGIN.
 * @param productSignupUrl the build's `launch.productSignupUrl` ("" for none)
 * @param productSignupOrigin the Worker var, unset or "" for none
 * @returns null when their origins are equal (or both are none), else both origins
 */
export function productOriginMismatch(productSignupUrl: string, productSignupOrigin: string | undefined): ProductOriginMismatch | null {
  const content = originOf(productSignupUrl);
  const allowed = (productSignupOrigin ?? "").trim().replace(/\/+$/, "");
  // Compared as origins: a var written with a trailing slash or capitals still names the same origin.
  return content === originOf(allowed) ? null : { content, allowed };
}

/** A mismatch in one line for the log and the invitation's `send_error`: no address, no token. */
export function mismatchReason({ content, allowed }: ProductOriginMismatch): string {
  const name = (origin: string) => (origin === "" ? "none" : origin);
  return `invitation link's origin ${name(content)} is not PRODUCT_SIGNUP_ORIGIN (${name(allowed)})`;
}
