/** Countdown arithmetic (product rule 20), on epoch ms so the visitor's time zone never matters. */

/** The countdown refreshes every second (ms; product rule 20). */
export const COUNTDOWN_TICK_MS = 1_000;

const SECOND_MS = 1_000;
const MINUTE_MS = 60 * SECOND_MS;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** Whole units left: days (unbounded), hours 0–23, minutes 0–59, seconds 0–59. */
export interface TimeLeft {
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
}

/** All units zero: shown once the launch moment has passed. */
export const ZERO_TIME_LEFT: TimeLeft = { days: 0, hours: 0, minutes: 0, seconds: 0 };

/** Time left from `nowMs` until `launchAtMs` (both ms since the epoch), rounded down to whole seconds. */
export function timeLeft(launchAtMs: number, nowMs: number): TimeLeft {
  const remaining = launchAtMs - nowMs;
  if (!(remaining > 0)) return ZERO_TIME_LEFT;
  return {
    days: Math.floor(remaining / DAY_MS),
    hours: Math.floor((remaining % DAY_MS) / HOUR_MS),
    minutes: Math.floor((remaining % HOUR_MS) / MINUTE_MS),
    seconds: Math.floor((remaining % MINUTE_MS) / SECOND_MS),
  };
}
