import { describe, expect, it } from "vitest";
import {
  addDays,
  ageOn,
  dayInZone,
  formatCalendarDate,
  formatDate,
  formatInZone,
  isValidTimeZone,
  todayInZone,
  zonedDayBounds,
  zonedDayStart,
  zonedMonthStart,
} from "#app/utils/zoned-time.ts";

// The organisation's days (app/utils/zoned-time.ts): every instant is explicit, nothing reads the
// clock, so these hold whenever and wherever the suite runs.

const HOUR = 3_600_000;

describe("zonedDayStart / zonedDayBounds", () => {
  it("is midnight on the organisation's wall clock, across daylight-saving changes", () => {
    expect(zonedDayStart("2024-03-10", "UTC").toISOString()).toBe("2024-03-10T00:00:00.000Z");
    expect(zonedDayStart("2024-03-10", "America/New_York").toISOString()).toBe("2024-03-10T05:00:00.000Z");
    expect(zonedDayStart("2024-03-11", "America/New_York").toISOString()).toBe("2024-03-11T04:00:00.000Z");
    expect(zonedDayStart("2024-07-01", "Europe/Paris").toISOString()).toBe("2024-06-30T22:00:00.000Z");
    expect(zonedDayStart("2024-01-01", "Asia/Kolkata").toISOString()).toBe("2023-12-31T18:30:00.000Z");
    // Samoa skipped 30 December 2011: the day after 29 December starts at the same instant as 31 December.
    expect(zonedDayStart("2011-12-31", "Pacific/Apia").toISOString()).toBe("2011-12-30T10:00:00.000Z");
    // Far east of UTC, the offset at UTC midnight is not the one at local midnight (New Zealand, spring forward on the 29th).
    expect(zonedDayStart("2024-09-29", "Pacific/Auckland").toISOString()).toBe("2024-09-28T12:00:00.000Z");
  });

  it("gives 23- and 25-hour days on daylight-saving changes (New York, Paris)", () => {
    const hours = (day: string, zone: string) => {
      const { start, end } = zonedDayBounds(day, zone);
      return (end.getTime() - start.getTime()) / HOUR;
    };
    expect(hours("2024-03-10", "America/New_York")).toBe(23);
    expect(hours("2024-11-03", "America/New_York")).toBe(25);
    expect(hours("2024-03-31", "Europe/Paris")).toBe(23);
    expect(hours("2024-10-27", "Europe/Paris")).toBe(25);
    expect(hours("2024-06-15", "Europe/Paris")).toBe(24);
    expect(zonedDayBounds("2024-11-03", "America/New_York")).toEqual({
      start: new Date("2024-11-03T04:00:00Z"),
      end: new Date("2024-11-04T05:00:00Z"),
    });
  });

  it("starts a day whose midnight is skipped at the jump (Santiago, Beirut), and after a repeated evening hour", () => {
    // Chile: 8 September 2024 00:00 (-04) → 01:00 (-03); 7 April 2024 00:00 (-03) → 6 April 23:00 (-04).
    expect(zonedDayStart("2024-09-08", "America/Santiago").toISOString()).toBe("2024-09-08T04:00:00.000Z");
    expect(zonedDayStart("2024-04-07", "America/Santiago").toISOString()).toBe("2024-04-07T04:00:00.000Z");
    // Lebanon: 31 March 2024 00:00 (+02) → 01:00 (+03).
    expect(zonedDayStart("2024-03-31", "Asia/Beirut").toISOString()).toBe("2024-03-30T22:00:00.000Z");
  });

  it("is the first instant of the day in every day of a year, in zones with odd rules", () => {
    const zones = [
      "UTC",
      "America/New_York",
      "Europe/Paris",
      "America/Santiago",
      "Asia/Beirut",
      "Australia/Lord_Howe",
      "Pacific/Auckland",
      "Asia/Kathmandu",
      "America/St_Johns",
    ];
    for (const zone of zones) {
      for (let day = "2024-01-01"; day < "2025-01-02"; day = addDays(day, 1)) {
        const start = zonedDayStart(day, zone).getTime();
        expect(dayInZone(start, zone), `${zone} ${day}`).toBe(day);
        expect(dayInZone(start - 1, zone) < day, `${zone} ${day} - 1ms`).toBe(true);
      }
    }
  });

  it("puts 23:30 and 00:30 local on the local day, not the UTC one", () => {
    // 23:30 in New York is already tomorrow in UTC; 00:30 in Paris is still yesterday in UTC.
    expect(dayInZone("2024-03-06T04:30:00Z", "America/New_York")).toBe("2024-03-05");
    expect(dayInZone("2024-03-05T23:30:00Z", "Europe/Paris")).toBe("2024-03-06");
    const { start, end } = zonedDayBounds("2024-03-05", "America/New_York");
    const lateEvening = new Date("2024-03-06T04:30:00Z");
    expect(lateEvening >= start && lateEvening < end).toBe(true);
  });
});

describe("todayInZone / zonedMonthStart", () => {
  it("is the organisation's today, whichever day it is in UTC", () => {
    const now = new Date("2024-03-31T23:30:00Z");
    expect(todayInZone("UTC", now)).toBe("2024-03-31");
    expect(todayInZone("Europe/Paris", now)).toBe("2024-04-01");
    expect(todayInZone("America/New_York", now)).toBe("2024-03-31");
    expect(todayInZone("America/New_York", new Date("2024-04-01T03:59:59Z"))).toBe("2024-03-31");
    expect(todayInZone("America/New_York", new Date("2024-04-01T04:00:00Z"))).toBe("2024-04-01");
  });

  it("starts the month at local midnight on the 1st", () => {
    expect(zonedMonthStart(new Date("2024-03-31T23:30:00Z"), "Europe/Paris").toISOString()).toBe("2024-03-31T22:00:00.000Z");
    expect(zonedMonthStart(new Date("2024-03-31T23:30:00Z"), "America/New_York").toISOString()).toBe("2024-03-01T05:00:00.000Z");
    expect(zonedMonthStart(new Date("2024-03-31T23:30:00Z"), "UTC").toISOString()).toBe("2024-03-01T00:00:00.000Z");
  });
});

describe("formatting", () => {
  it("prints instants in the organisation's zone and the page's language", () => {
    const lateInNewYork = "2024-03-06T04:30:00Z";
    expect(formatDate(lateInNewYork, "en", "America/New_York")).toBe(
      new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short", timeZone: "America/New_York" }).format(
        new Date(lateInNewYork),
      ),
    );
    expect(formatDate(lateInNewYork, "en", "America/New_York")).toMatch(/^Mar 5, 2024.*11:30\sPM$/);
    expect(formatDate(lateInNewYork, "fr", "Europe/Paris", false)).toBe("6 mars 2024");
    expect(formatInZone(lateInNewYork, "es", "America/New_York", { dateStyle: "long" })).toBe("5 de marzo de 2024");
    // An unknown zone prints UTC rather than failing the page.
    expect(isValidTimeZone("Mars/Olympus_Mons")).toBe(false);
    expect(formatDate(lateInNewYork, "en", "Mars/Olympus_Mons", false)).toBe("Mar 6, 2024");
  });

  it("prints a date of birth as its calendar day, whatever the zone", () => {
    expect(formatCalendarDate("1970-03-06", "en")).toBe("Mar 6, 1970");
    expect(formatCalendarDate("1970-03-06", "fr", "long")).toBe("6 mars 1970");
  });
});

describe("ageOn", () => {
  it("counts whole years between calendar days, the birthday itself included", () => {
    expect(ageOn("1970-03-06", "2024-03-05")).toBe(53);
    expect(ageOn("1970-03-06", "2024-03-06")).toBe(54);
    expect(ageOn("2000-02-29", "2023-02-28")).toBe(22);
    expect(ageOn("2000-02-29", "2023-03-01")).toBe(23);
    expect(ageOn("2024-03-06", "2024-03-05")).toBe(0);
  });
});
