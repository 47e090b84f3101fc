/**
 * The Meta ad pixel, loaded only after consent (product rule 21), and its one `Lead` per signup
 * (product rule 22). Before consent `window.fbq` does not exist, so nothing reaches the ad network.
 */
import { CONSOLE_PATH, INVITE_PATH, STATUS_PATH } from "../../shared/routes";

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

export type ConsentChoice = "accepted" | "declined";

/**
 * Pages where the pixel never loads and the banner never asks, whatever the visitor chose: the status and invite pages
 * read a person's secret link, and the operator's console shows people's addresses, which no third-party script may see.
 */
export const PIXEL_FREE_PATHS: readonly string[] = [STATUS_PATH, CONSOLE_PATH, INVITE_PATH];

/**
 * Whether the pixel may load on the page at `pathname` ("/status" and "/status/" are one page).
 * @param pathname `location.pathname`
 */
export function pixelAllowedOn(pathname: string): boolean {
  const page = pathname.endsWith("/") ? pathname : `${pathname}/`;
  return !PIXEL_FREE_PATHS.includes(page);
}

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
 * The inline script after the banner's markup, run before the page below is painted: it sets
 * CONSENT_QUESTION_ATTRIBUTE when readConsent() would return null. Without JavaScript the banner stays
 * hidden, as no pixel could load anyway. The CSP allows it by its hash.
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
 * Define `window.fbq` and load Meta's pixel script, once, then record a PageView. Meta's base code as
 * bundled code (no inline script for the CSP): calls go to the queue until `fbevents.js` sets
 * `callMethod`, then through it. A stub that always queued would lose every later event, such as the
 * Lead of a visitor who accepted on / and then signed up.
 * @param pixelId digits, `adPixel.id`
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

/** Load the pixel when one is configured (`pixelId` not null) and the visitor accepted it earlier. */
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
