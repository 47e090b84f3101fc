/** What the referral program keeps for one visit, in sessionStorage: never a cookie, so nothing here is sent to a server. */

export type VisitStorage = Pick<Storage, "getItem" | "setItem">;

/**
 * The tab's sessionStorage, or null where the browser refuses it (storage switched off,
 * some private modes, a sandboxed frame): reading `window.sessionStorage` itself throws there.
 */
export function visitStorage(): VisitStorage | null {
  try {
    return typeof window === "undefined" ? null : window.sessionStorage;
  } catch {
    return null;
  }
}

/**
 * Read one key; a browser that refuses storage reads as nothing kept.
 * @returns the kept text, or null
 */
export function readKept(key: string, storage: VisitStorage | null = visitStorage()): string | null {
  try {
    return storage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

/**
 * Keep one key for the visit. A full or refused storage keeps nothing: the visitor loses only
 * the convenience (the page then says to check their e-mail), never their signup.
 */
export function keep(key: string, value: string, storage: VisitStorage | null = visitStorage()): void {
  try {
    storage?.setItem(key, value);
  } catch {
    // QuotaExceededError or a refused storage: nothing to keep, nothing to tell the visitor.
  }
}
