/**
 * The site's own paths, in one place: pages link and navigate with these names, never with
 * path literals (product rules 1–4). Campaign pages live at `/<slug>/`, built from content.
 */

/** The signup page (product rule 1). */
export const HOME_PATH = "/";

/** The confirmation page a successful signup leads to (product rule 3). */
export const SUCCESS_PATH = "/success/";

/** A person's standing, reached only by the link in their e-mail; kept out of search results and the sitemap. */
export const STATUS_PATH = "/status/";

/**
 * Where invitation links lead while the content names no product sign-up page (`launch.productSignupUrl`): it accepts
 * the invitation on `npm start` only. Its address carries the token: never indexed, no ad pixel.
 */
export const INVITE_PATH = "/invite/";

/** The top referrers (the referral program's public page, listed in the sitemap). */
export const LEADERBOARD_PATH = "/leaderboard/";

/** The pages that exist only while the referral program runs (`referrals.enabled`); the build leaves them out otherwise. */
export const REFERRAL_PAGE_PATHS: readonly string[] = [STATUS_PATH, LEADERBOARD_PATH];

/** The giveaway draw: its commitment, entrants, winners and the check anyone can run (built from the draw file). */
export const GIVEAWAY_DRAW_PATH = "/giveaway/draw/";

/**
 * The operator's console: on the console's own host only (worker/src/hosts.ts), where Cloudflare Access guards it at
 * the edge and the Worker its API; never in the sitemap.
 */
export const CONSOLE_PATH = "/console/";

/** The public record: counts per week, the draws and the audit log's checkpoint (shared/transparency.ts). */
export const TRANSPARENCY_PATH = "/transparency/";

/** The web editor (Decap CMS): on the editor's own host only, when the Worker serves it at all (worker/src/hosts.ts). */
export const ADMIN_PATH = "/admin/";
