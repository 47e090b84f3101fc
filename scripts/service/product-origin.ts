/**
 * `npm run deploy`'s check of where invitation links lead: the build's `launch.productSignupUrl` must be on
 * wrangler.jsonc's `vars.PRODUCT_SIGNUP_ORIGIN`, the rule the Worker applies before it builds any link
 * (worker/src/launch/product-origin.ts), told to whoever deploys in plain words.
 */
import type { ServiceSettings } from "../../shared/service-settings";
import { productOriginMismatch } from "../../worker/src/launch/product-origin";

/** The var in wrangler.jsonc's text (its `vars` hold plain strings). */
const PRODUCT_SIGNUP_ORIGIN_VAR = /"PRODUCT_SIGNUP_ORIGIN"\s*:\s*"([^"]*)"/;

/** PRODUCT_SIGNUP_ORIGIN in wrangler.jsonc's text, trimmed; "" when it is empty or missing. */
export function productSignupOriginOf(config: string): string {
  return (PRODUCT_SIGNUP_ORIGIN_VAR.exec(config)?.[1] ?? "").trim();
}

/**
 * Why the build may not be deployed because of where its invitation links lead; null when they lead to
 * PRODUCT_SIGNUP_ORIGIN (or the content names no product sign-up page and the var is empty).
 * @param config wrangler.jsonc's text
 * @param settings the build's service-settings.json
 */
export function productOriginProblem(config: string, settings: Pick<ServiceSettings, "launch">): string | null {
  const mismatch = productOriginMismatch(settings.launch.productSignupUrl, productSignupOriginOf(config));
  if (!mismatch) return null;
  const content =
    mismatch.content === ""
      ? "content/site.yaml's launch.productSignupUrl is empty (invitations would lead to the site's own /invite/ page)"
      : `content/site.yaml's launch.productSignupUrl sends every invitation code to ${mismatch.content}`;
  const allowed =
    mismatch.allowed === ""
      ? "wrangler.jsonc's vars.PRODUCT_SIGNUP_ORIGIN is empty"
      : `wrangler.jsonc's vars.PRODUCT_SIGNUP_ORIGIN is ${mismatch.allowed}`;
  return (
    `${content}, but ${allowed}, so the Worker would send no invitation. Where invitations lead is a developer's ` +
    "setting, not an editor's: if the content's address is the product's real sign-up page, set vars.PRODUCT_SIGNUP_ORIGIN " +
    "to its origin; if not, put launch.productSignupUrl back (docs/deploy.md: Configuration)."
  );
}
