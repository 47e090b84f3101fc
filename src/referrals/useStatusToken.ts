/**
 * The page's status token, read after hydration (the prerendered HTML has no fragment) and on every hashchange, then
 * moved out of the address bar: kept in sessionStorage for the visit (a reload still works) and the address replaced by
 * plain /status/, so no script, bookmark, screen share or history entry holds the link.
 */
import { useEffect, useState } from "react";
import { STATUS_PATH } from "../../shared/routes";
import { keptStatusToken, keepStatusToken, statusTokenIn } from "./statusToken";

/**
 * @returns undefined until the address has been read, then the token (from the fragment, else the one kept for the
 *   visit), or null when there is none
 */
export function useStatusToken(): string | null | undefined {
  const [token, setToken] = useState<string | null | undefined>(undefined);
  useEffect(() => {
    const read = () => {
      const fromAddress = statusTokenIn(window.location.hash);
      if (window.location.hash) {
        // Gatsby's router keeps its own state in history.state: replace the address only.
        window.history.replaceState(window.history.state, "", `${STATUS_PATH}${window.location.search}`);
      }
      if (fromAddress) keepStatusToken(fromAddress);
      setToken(fromAddress ?? keptStatusToken());
    };
    read();
    window.addEventListener("hashchange", read);
    return () => window.removeEventListener("hashchange", read);
  }, []);
  return token;
}
