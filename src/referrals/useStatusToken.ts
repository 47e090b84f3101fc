/** The page's status token, read after hydration (the prerendered HTML has no fragment) and on every hashchange. */
import { useEffect, useState } from "react";
import { statusTokenIn } from "./statusToken";

/**
 * @returns undefined until the address has been read, then the token, or null when it has none
 */
export function useStatusToken(): string | null | undefined {
  const [token, setToken] = useState<string | null | undefined>(undefined);
  useEffect(() => {
    const read = () => setToken(statusTokenIn(window.location.hash));
    read();
    window.addEventListener("hashchange", read);
    return () => window.removeEventListener("hashchange", read);
  }, []);
  return token;
}
