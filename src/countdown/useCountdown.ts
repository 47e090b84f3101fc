import { useEffect, useState } from "react";
import { COUNTDOWN_TICK_MS, timeLeft, type TimeLeft } from "./timeLeft";

/**
 * The live countdown to `launchAtMs`, ticking every COUNTDOWN_TICK_MS. The first render (HTML and
 * hydration alike) uses the build's clock `builtAtMs` so both agree: zeros if the launch had
 * passed, else null until the browser's clock takes over. Both arguments are ms since the epoch.
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
