/** The standing the last signup in this tab kept, read after hydration because the first render must match the prerendered HTML. */
import { useEffect, useState } from "react";
import { keptSignupStanding, type Standing } from "./standing";

/**
 * @returns undefined until the tab's storage has been read, then the kept standing or null (none kept)
 */
export function useKeptStanding(): Standing | null | undefined {
  const [standing, setStanding] = useState<Standing | null | undefined>(undefined);
  useEffect(() => setStanding(keptSignupStanding()), []);
  return standing;
}
