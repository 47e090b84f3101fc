import { useEffect, useState } from "react";
import { COUNTDOWN_TICK_MS, timeLeft, type TimeLeft } from "./timeLeft";

/**
 * The live countdown to `launchAtMs`, ticking every COUNTDOWN_TICK_MS (1 s).
 *
 * The first render (prerendered HTML and hydration alike) uses `builtAtMs`, the
 * build's clock, so the two agree: when the launch had already passed at build
 * time that is the right answer (zeros) for ever; otherwise `null` is returned
 * until the browser's clock takes over after hydration.
 * @param launchAtMs launch moment, ms since the epoch
 * @param builtAtMs when the site was built, ms since the epoch
 * @returns the time left, or null before the browser's clock is known
 */
export function useCountdown(launchAtMs: number, builtAtMs: number): TimeLeft | null {
  const [now, setNow] = useState<number | null>(builtAtMs >= launchAtMs ? builtAtMs : null);
  const passed = now !== null && now >= launchAtMs;

  useEffect(() => {
    if (passed) return undefined;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), COUNTDOWN_TICK_MS);
    return () => clearInterval(timer);
  }, [passed]);

  return now === null ? null : timeLeft(launchAtMs, now);
}
