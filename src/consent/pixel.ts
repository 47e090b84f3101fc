/**
 * The Meta (Facebook) ad pixel, loaded only after the visitor's consent (product rule 21),
 * and the one `Lead` it reports per signup (product rule 22).
 *
 * Before consent nothing is requested from the ad network and `window.fbq` does
 * not exist, so /success/ fires no Lead: no pixel, nothing happens.
 */

declare global {
  interface Window {
    /** The Meta pixel's global function, present only when the pixel has loaded (see loadMetaPixel). */
    fbq?: (...args: unknown[]) => void;
  }
}

/** Where the visitor's choice is remembered (localStorage key). */
export const CONSENT_STORAGE_KEY = "pixel-consent";
/** Meta's pixel script. Also allowed by the Content-Security-Policy when a pixel id is configured. */
export const META_PIXEL_SCRIPT_URL = "https://connect.facebook.net/en_US/fbevents.js";
/** Origins the pixel talks to (for the Content-Security-Policy). */
export const META_PIXEL_ORIGINS = ["https://connect.facebook.net", "https://www.facebook.com"];

/** The visitor's answer to the consent banner. */
export type ConsentChoice = "accepted" | "declined";

/** The remembered choice, or null when the visitor has not answered (or storage is blocked). */
export function readConsent(): ConsentChoice | null {
  try {
    const value = window.localStorage.getItem(CONSENT_STORAGE_KEY);
    return value === "accepted" || value === "declined" ? value : null;
  } catch {
    return null;
  }
}

/**
 * The attribute on `<html>` that shows the consent banner: set while the visitor has not answered. The banner is in
 * the server-rendered HTML of a site with a pixel id, hidden by default, so that showing it shifts no layout.
 */
export const CONSENT_QUESTION_ATTRIBUTE = "data-consent-question";

/**
 * The inline script that runs where the banner's markup ends, before the page below it is parsed or painted: it sets
 * CONSENT_QUESTION_ATTRIBUTE when readConsent() would return null (no answer, any other value, or blocked storage).
 * Without JavaScript it does not run, and the banner stays hidden: without JavaScript no pixel could load anyway.
 * The Content-Security-Policy allows it by its hash, as every inline script of the build (src/build/securityHeaders.ts).
 */
export const CONSENT_QUESTION_SCRIPT = `(function(){var v=null;try{v=window.localStorage.getItem(${JSON.stringify(
  CONSENT_STORAGE_KEY,
)})}catch(e){}if(v!=="accepted"&&v!=="declined")document.documentElement.setAttribute(${JSON.stringify(
  CONSENT_QUESTION_ATTRIBUTE,
)},"")})()`;

/**
 * Show or hide the consent banner (CONSENT_QUESTION_ATTRIBUTE on `<html>`), after the inline script's first decision.
 * @param asking true while the visitor has not answered
 */
export function showConsentQuestion(asking: boolean): void {
  document.documentElement.toggleAttribute(CONSENT_QUESTION_ATTRIBUTE, asking);
}

/** Remember the visitor's choice; when storage is blocked it holds for this page view only. */
export function writeConsent(choice: ConsentChoice): void {
  try {
    window.localStorage.setItem(CONSENT_STORAGE_KEY, choice);
  } catch {
    // Private mode or blocked storage: the banner will ask again next visit.
  }
}

/**
 * Meta's `fbq` as its base code defines it: `fbevents.js`, once loaded, drains `queue`
 * and sets `callMethod`, through which every later call must go.
 */
type Fbq = ((...args: unknown[]) => void) & {
  queue: unknown[][];
  callMethod?: (...args: unknown[]) => void;
  loaded?: boolean;
  version?: string;
  push?: unknown;
};

/**
 * Define `window.fbq` and load Meta's pixel script, once, then record a PageView.
 * Mirrors Meta's official base code, but as bundled code so the CSP needs no inline script:
 * calls made before `fbevents.js` has loaded are queued (the script drains the queue once),
 * calls made after it go straight to `fbq.callMethod`, as the base code does. A stub that
 * always queued would lose every event fired after the script loaded, such as the Lead of
 * a visitor who accepted on / and then signed up.
 * @param pixelId the pixel id (digits), from content/site.yaml → adPixel.id
 */
export function loadMetaPixel(pixelId: string): void {
  if (typeof window.fbq === "function") return;
  const fbq: Fbq = Object.assign(
    (...args: unknown[]) => {
      if (fbq.callMethod) fbq.callMethod(...args);
      else fbq.queue.push(args);
    },
    { queue: [] as unknown[][] },
  );
  fbq.push = fbq;
  fbq.loaded = true;
  fbq.version = "2.0";
  window.fbq = fbq;
  (window as unknown as { _fbq?: Fbq })._fbq = fbq;
  const script = document.createElement("script");
  script.async = true;
  script.src = META_PIXEL_SCRIPT_URL;
  document.head.appendChild(script);
  fbq("init", pixelId);
  fbq("track", "PageView");
}

/**
 * Load the pixel when one is configured and the visitor accepted it earlier.
 * @param pixelId the configured pixel id, or null/undefined for none
 */
export function loadPixelIfConsented(pixelId: string | null | undefined): void {
  if (pixelId && readConsent() === "accepted") loadMetaPixel(pixelId);
}

/**
 * Report the signup to the pixel as Meta's standard `Lead` event, when the pixel is on the page;
 * do nothing when it is not (no consent, or no pixel id). Called once by /success/ (product rule 22).
 * @param win the window whose `fbq` receives the event (a test's stand-in, or the page's own)
 */
export function trackLead(win: Window = window): void {
  if (typeof win.fbq === "function") win.fbq("track", "Lead");
}
