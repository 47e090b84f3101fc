/**
 * The site's own paths, in one place: pages link and navigate with these names, never with
 * path literals (product rules 1–4). Campaign pages live at `/<slug>/`, built from content.
 */

/** The signup page (product rule 1). */
export const HOME_PATH = "/";

/** The confirmation page a successful signup leads to (product rule 3). */
export const SUCCESS_PATH = "/success/";
