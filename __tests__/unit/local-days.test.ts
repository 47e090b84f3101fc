/**
 * The site's days (shared/local-days.ts): the launch moment's offset, a moment's local date at it, and the name the
 * dashboard gives the time zone.
 * @jest-environment node
 */
import { addDays, localDay, timeZoneName, utcOffsetMinutesOf } from "../../shared/local-days";

describe("utcOffsetMinutesOf: the site's time zone from the launch moment", () => {
  it("reads the offset at the end, in minutes east of UTC", () => {
    expect(utcOffsetMinutesOf("2025-10-13T15:00:00-08:00")).toBe(-480);
    expect(utcOffsetMinutesOf("2025-10-13T15:00:00+05:30")).toBe(330);
    expect(utcOffsetMinutesOf("2025-10-13T15:00:00Z")).toBe(0);
  });

  it("refuses a moment without one", () => {
    expect(() => utcOffsetMinutesOf("2025-10-13T15:00:00")).toThrow(RangeError);
  });
});

describe("localDay: the date a moment falls on in the site's time zone", () => {
  it("puts a moment just before local midnight on its local day, whatever its UTC date", () => {
    expect(localDay("2026-03-11T06:59:59.999Z", -420)).toBe("2026-03-10");
    expect(localDay("2026-03-11T07:00:00.000Z", -420)).toBe("2026-03-11");
    expect(localDay(Date.parse("2026-03-10T18:29:59Z"), 330)).toBe("2026-03-10");
    expect(localDay(Date.parse("2026-03-10T18:30:00Z"), 330)).toBe("2026-03-11");
  });

  it("counts days across a month and a leap day", () => {
    expect(addDays("2028-02-28", 1)).toBe("2028-02-29");
    expect(addDays("2028-03-01", -1)).toBe("2028-02-29");
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
  });
});

describe("timeZoneName: the zone's name for the operator and for Intl", () => {
  it("names whole hours as IANA's Etc zones (whose sign is the other way) and others by their offset", () => {
    expect(timeZoneName(0)).toBe("UTC");
    expect(timeZoneName(-480)).toBe("Etc/GMT+8");
    expect(timeZoneName(60)).toBe("Etc/GMT-1");
    expect(timeZoneName(330)).toBe("+05:30");
    expect(timeZoneName(-210)).toBe("-03:30");
    // Intl reads the Etc name as the offset it stands for.
    const hour = new Intl.DateTimeFormat("en-US", { timeZone: timeZoneName(-480), hour: "numeric", hourCycle: "h23" });
    expect(hour.format(Date.parse("2026-03-11T12:00:00Z"))).toBe("04");
  });
});
