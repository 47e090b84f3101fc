/**
 * Cloudflare Turnstile in the signup form (waitlist-api only): a token per attempt. Cloudflare accepts
 * each token once, so a failed attempt's token is spent and the widget is reset for the next.
 * No top-level browser access: the build imports TURNSTILE_SCRIPT_URL from here too.
 */
import { TURNSTILE_SIGNUP_ACTION } from "../../shared/contract";

/** Cloudflare's script, with explicit rendering: the form decides where and when the widget is drawn. */
export const TURNSTILE_SCRIPT_URL = "https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit";

/**
 * The widget's size: `flexible` fills the form's width (at least 300 px) and is 65 px tall, Cloudflare's fixed
 * height for the visible widget; the form reserves that height before the widget arrives, so nothing moves.
 */
export const TURNSTILE_WIDGET_SIZE = "flexible";
export const TURNSTILE_WIDGET_HEIGHT_PX = 65;

/** Turnstile's own colours: the site is dark, so the widget is too (its `auto` would follow the visitor's OS instead). */
export const TURNSTILE_THEME = "dark";

/** How long an attempt waits for a token (ms), room for a visitor asked to click; then it goes without and the service decides. */
export const TURNSTILE_TOKEN_WAIT_MS = 10_000;

/** The hidden field the widget writes its token into when drawn inside a form (Cloudflare's default name). */
export const TURNSTILE_RESPONSE_FIELD = "cf-turnstile-response";

/** The options of `turnstile.render` the form uses (Cloudflare's client-side rendering reference). */
export interface TurnstileRenderOptions {
  sitekey: string;
  /** What the widget is for, reported back by siteverify (the Worker checks it). */
  action?: string;
  callback?: (token: string) => void;
  "expired-callback"?: () => void;
  "error-callback"?: (code?: string) => boolean | void;
  "timeout-callback"?: () => void;
  size?: "normal" | "flexible" | "compact";
  theme?: "auto" | "light" | "dark";
  "response-field"?: boolean;
  "response-field-name"?: string;
}

/** The part of Cloudflare's `window.turnstile` the form uses. */
export interface TurnstileApi {
  /** Draw a widget in `container`; returns its id. */
  render(container: HTMLElement | string, options: TurnstileRenderOptions): string | null | undefined;
  /** Run the widget's check again (a new token follows through `callback`). */
  reset(widgetId?: string): void;
  /** The widget's current token, if it has one. */
  getResponse(widgetId?: string): string | undefined;
  /** Take the widget out of the page. */
  remove(widgetId?: string): void;
}

declare global {
  interface Window {
    turnstile?: TurnstileApi;
  }
}

/** The script being loaded, per URL: one script element per page, whatever draws a widget. */
const loading = new Map<string, Promise<TurnstileApi>>();

/**
 * Load Turnstile's script once and resolve with `window.turnstile`.
 * @param url TURNSTILE_SCRIPT_URL, or the build's override (a test stand-in)
 * @throws (rejects) Error when the script fails to load (blocked, offline) or defines no `window.turnstile`
 */
export function loadTurnstileScript(url: string): Promise<TurnstileApi> {
  // Already on the page (another form drew a widget before this one): nothing more to load.
  if (window.turnstile) return Promise.resolve(window.turnstile);
  const known = loading.get(url);
  if (known) return known;
  const promise = new Promise<TurnstileApi>((resolve, reject) => {
    const script = document.createElement("script");
    script.src = url;
    script.async = true;
    script.addEventListener("load", () => {
      if (window.turnstile) resolve(window.turnstile);
      else reject(new Error(`${url} loaded but defined no window.turnstile`));
    });
    script.addEventListener("error", () => reject(new Error(`${url} could not be loaded`)));
    document.head.appendChild(script);
  });
  // A failed load may be retried by the next form that asks (the visitor came back online).
  promise.catch(() => loading.delete(url));
  loading.set(url, promise);
  return promise;
}

/** What the signup needs from a robot check: a token per attempt, and word that one was spent on a failed attempt. */
export interface SignupVerification {
  /** The current token, or the next one within `waitMs`; undefined when the widget failed, was never drawn, or the wait ran out. */
  token(waitMs?: number): Promise<string | undefined>;
  /** The token went out with an attempt that failed: Cloudflare accepts it no more, so ask for a new one. */
  spent(): void;
}

/**
 * One Turnstile widget's state, between the widget (which reports tokens through its callbacks) and the signup
 * (which asks for one per attempt). Created by the form; the widget component draws into it with `mount`.
 */
export class TurnstileChallenge implements SignupVerification {
  private api: TurnstileApi | null = null;
  private widgetId: string | undefined;
  private current: string | null = null;
  /** The script could not load, or the widget reported an error and has no token: do not wait for one. */
  private broken = false;
  private waiters = new Set<(token: string | undefined) => void>();

  /** Draw the widget into the form's reserved box, once the script has loaded. */
  mount(api: TurnstileApi, container: HTMLElement, siteKey: string): void {
    this.api = api;
    this.broken = false;
    this.widgetId =
      api.render(container, {
        sitekey: siteKey,
        action: TURNSTILE_SIGNUP_ACTION,
        size: TURNSTILE_WIDGET_SIZE,
        theme: TURNSTILE_THEME,
        "response-field-name": TURNSTILE_RESPONSE_FIELD,
        callback: (token) => this.settle(token),
        // Turnstile refreshes an expired token by itself; until then there is none.
        "expired-callback": () => {
          this.current = null;
        },
        "timeout-callback": () => {
          this.current = null;
        },
        // Turnstile retries by itself; meanwhile an attempt goes without a token instead of waiting. Returning true
        // tells Turnstile the error was handled (it would otherwise throw it in the page).
        "error-callback": () => {
          this.current = null;
          this.fail();
          return true;
        },
      }) ?? undefined;
  }

  /** The script could not be loaded, or the widget broke: attempts go without a token. */
  fail(): void {
    this.broken = true;
    this.resolveWaiters(undefined);
  }

  /** Take the widget out (the form left the page). */
  unmount(): void {
    if (this.api && this.widgetId !== undefined) this.api.remove(this.widgetId);
    this.api = null;
    this.widgetId = undefined;
    this.current = null;
    this.resolveWaiters(undefined);
  }

  token(waitMs = TURNSTILE_TOKEN_WAIT_MS): Promise<string | undefined> {
    const ready = this.current ?? (this.api && this.widgetId !== undefined ? this.api.getResponse(this.widgetId) : undefined);
    if (ready) return Promise.resolve(ready);
    if (this.broken) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const timer = setTimeout(() => done(undefined), waitMs);
      const done = (token: string | undefined) => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve(token);
      };
      this.waiters.add(done);
    });
  }

  spent(): void {
    this.current = null;
    if (this.api && this.widgetId !== undefined) this.api.reset(this.widgetId);
  }

  private settle(token: string): void {
    this.current = token;
    this.broken = false;
    this.resolveWaiters(token);
  }

  private resolveWaiters(token: string | undefined): void {
    for (const waiter of [...this.waiters]) waiter(token);
  }
}
