/**
 * The waitlist service's settings the build writes (`public/service-settings.json`, read by the Worker):
 * only for a build that uses the service, with what the Worker needs, and never left behind by an earlier build.
 * @jest-environment node
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { serviceSettings, writeServiceSettings } from "../../src/build/serviceSettings";
import type { SiteContent } from "../../src/content/schema";
import { loadTestContent } from "../support/content";
import { QUICKNET } from "../../shared/giveaway/chains";

const fixture = loadTestContent() as unknown as SiteContent;
const withProvider = (provider: Partial<SiteContent["provider"]>, url = fixture.site.url): SiteContent => ({
  ...fixture,
  site: { ...fixture.site, url },
  provider: { ...fixture.provider, ...provider },
});

let publicDir: string;
beforeEach(() => {
  publicDir = mkdtempSync(path.join(tmpdir(), "service-settings-"));
});
afterEach(() => rmSync(publicDir, { recursive: true, force: true }));

/** The build's signup pages: the site's own and a campaign's. */
const PAGES = [
  { path: "/", source: "Fixture Fund waitlist" },
  { path: "/nba-ads/", source: "nba-ads" },
];

it("gives the service the site's address, the list, the custom source, the Turnstile site key, the referral rules, the time zone, the signup pages and launch day's rules", () => {
  expect(
    serviceSettings(
      withProvider({ transport: "waitlist-api", turnstileSiteKey: "1x00000000000000000000AA" }, "https://www.pickfund.example/"),
      PAGES,
    ),
  ).toEqual({
    siteUrl: "https://www.pickfund.example",
    listId: "WtL1st",
    source: "Fixture Fund waitlist",
    turnstileSiteKey: "1x00000000000000000000AA",
    referrals: { enabled: false, placesPerReferral: 10, entriesPerReferral: 1, countAfter: "confirmation" },
    draw: {
      chain: QUICKNET,
      id: "golden",
      cutoff: "2026-07-22T07:38:54.000Z",
      winners: 3,
      roundDelayHours: 24,
      relayUrl: "https://api.drand.sh",
    },
    leaderboard: { size: 10 },
    // The fixture names no launch day rules: the defaults.
    launch: {
      invitationDays: 7,
      productSignupUrl: "",
      reminderDaysBefore: 2,
      backfill: false,
      invitationMetric: "Waitlist invitation",
      reminderMetric: "Waitlist invitation reminder",
    },
    // The fixture's launch moment is at -07:00.
    utcOffsetMinutes: -420,
    signupPages: PAGES,
  });
  expect(serviceSettings(withProvider({ transport: "waitlist-api", turnstileSiteKey: undefined, source: undefined }), PAGES)).toMatchObject(
    {
      source: "",
      turnstileSiteKey: null,
    },
  );
});

it("gives none to a build on another transport, or a demo build (whose page sends nothing)", () => {
  expect(serviceSettings(withProvider({ transport: "client-api" }), PAGES)).toBeNull();
  expect(serviceSettings(withProvider({ transport: "legacy-form" }), PAGES)).toBeNull();
  expect(serviceSettings(withProvider({ transport: "waitlist-api", demoMode: true }), PAGES)).toBeNull();
});

it("writes public/service-settings.json as JSON the Worker reads", async () => {
  const settings = serviceSettings(withProvider({ transport: "waitlist-api" }), PAGES);
  const file = await writeServiceSettings(publicDir, settings);
  expect(file).toBe(path.join(publicDir, "service-settings.json"));
  expect(JSON.parse(readFileSync(path.join(publicDir, "service-settings.json"), "utf8"))).toEqual(settings);
});

it("deletes the file an earlier build left, when this build does not use the service", async () => {
  writeFileSync(path.join(publicDir, "service-settings.json"), "{}");
  await expect(writeServiceSettings(publicDir, null)).resolves.toBeNull();
  expect(existsSync(path.join(publicDir, "service-settings.json"))).toBe(false);
});
