/**
 * The console's numbers, dates and ages, written by Intl in the content's language and time zone
 * (`site.language`, `console.timeZone`). Formatters are made once per language and zone.
 */

/** Formatters for one language and time zone. */
export interface ConsoleFormat {
  /** 1234 → "1,234". */
  count(value: number): string;
  /** 0.256 → "25.6%". */
  share(value: number): string;
  /** A ratio with two decimals: 0.4 → "0.40". */
  ratio(value: number): string;
  /** An ISO 8601 instant → a date and time in the time zone. */
  dateTime(iso: string): string;
  /** A `YYYY-MM-DD` day (already in the time zone) → a short date. */
  day(date: string): string;
  /** How long ago `iso` was, relative to `nowMs`: "3 hours ago". */
  age(iso: string, nowMs: number): string;
  /** A time zone as its offset from GMT, which reads the same however the zone is named: `Etc/GMT+8` → "GMT-08:00". */
  zone(timeZone: string): string;
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** Formatters for `language` (BCP 47) and `timeZone` (IANA). */
export function consoleFormat(language: string, timeZone: string): ConsoleFormat {
  const count = new Intl.NumberFormat(language);
  const share = new Intl.NumberFormat(language, { style: "percent", maximumFractionDigits: 1 });
  const ratio = new Intl.NumberFormat(language, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const dateTime = new Intl.DateTimeFormat(language, { dateStyle: "medium", timeStyle: "short", timeZone });
  // A day is a calendar date already counted in the zone: written as it is, on UTC's calendar.
  const day = new Intl.DateTimeFormat(language, { month: "short", day: "numeric", timeZone: "UTC" });
  const relative = new Intl.RelativeTimeFormat(language, { numeric: "always" });
  return {
    count: (value) => count.format(value),
    share: (value) => share.format(value),
    ratio: (value) => ratio.format(value),
    dateTime: (iso) => dateTime.format(new Date(iso)),
    day: (date) => day.format(new Date(`${date}T00:00:00Z`)),
    age: (iso, nowMs) => {
      const elapsed = Math.max(0, nowMs - Date.parse(iso));
      if (elapsed >= DAY_MS) return relative.format(-Math.floor(elapsed / DAY_MS), "day");
      if (elapsed >= HOUR_MS) return relative.format(-Math.floor(elapsed / HOUR_MS), "hour");
      return relative.format(-Math.floor(elapsed / MINUTE_MS), "minute");
    },
    zone: (zone) => {
      try {
        const parts = new Intl.DateTimeFormat(language, { timeZone: zone, timeZoneName: "longOffset" }).formatToParts(0);
        return parts.find((part) => part.type === "timeZoneName")?.value ?? zone;
      } catch {
        // A zone this browser's Intl does not know: its name is the best there is.
        return zone;
      }
    },
  };
}

/** `text` with each `{name}` replaced by its value. */
export function fill(text: string, values: Record<string, string>): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}
