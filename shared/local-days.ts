/**
 * The site's days: the operator's dashboard counts signups per local date in the site's time zone, which is the UTC
 * offset of the content's launch moment (`launch.moment`, e.g. `…-08:00`). The build writes the offset into
 * service-settings.json (`utcOffsetMinutes`); the Worker, the console page and the bench compute days with these.
 */

/** Minutes in a day. */
const DAY_MINUTES = 24 * 60;

/** A UTC offset at the end of an ISO 8601 date-time: `Z`, `+05:30`, `-08:00`. */
const OFFSET = /(Z|[+-]\d{2}:\d{2})$/;

/**
 * The UTC offset a date-time is written in, in minutes east of UTC (`-08:00` → −480, `Z` → 0).
 * @throws RangeError when the text does not end in an offset
 */
export function utcOffsetMinutesOf(dateTime: string): number {
  const offset = OFFSET.exec(dateTime.trim())?.[1];
  if (offset === undefined) throw new RangeError(`No UTC offset at the end of ${JSON.stringify(dateTime)}`);
  if (offset === "Z") return 0;
  const minutes = Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6));
  return offset.startsWith("-") ? -minutes : minutes;
}

/**
 * The local date (YYYY-MM-DD) of a moment at a UTC offset: the same rule as SQLite's
 * `date(created_at, '<offset> minutes')`, which the rollups use (migrations/0010_rollups.sql).
 * @param at ms since the epoch, or an ISO 8601 date-time
 */
export function localDay(at: number | string, utcOffsetMinutes: number): string {
  const ms = typeof at === "number" ? at : Date.parse(at);
  return new Date(ms + utcOffsetMinutes * 60_000).toISOString().slice(0, 10);
}

/** A YYYY-MM-DD date `days` days later (earlier when negative). */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MINUTES * 60_000).toISOString().slice(0, 10);
}

/**
 * The IANA name of a fixed UTC offset, for Intl and for the operator: `UTC`, `Etc/GMT+8` for −08:00 (IANA's Etc
 * zones count the other way), or the offset itself (`+05:30`, which ECMA-402 takes as a time zone) when it is not a
 * whole number of hours.
 */
export function timeZoneName(utcOffsetMinutes: number): string {
  if (utcOffsetMinutes === 0) return "UTC";
  if (utcOffsetMinutes % 60 === 0) return `Etc/GMT${utcOffsetMinutes > 0 ? "-" : "+"}${Math.abs(utcOffsetMinutes) / 60}`;
  const sign = utcOffsetMinutes > 0 ? "+" : "-";
  const minutes = Math.abs(utcOffsetMinutes);
  return `${sign}${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
}
