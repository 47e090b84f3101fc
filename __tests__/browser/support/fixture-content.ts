/**
 * The fixture content, loaded as the build loads it, so tests look for the copy a visitor is given
 * rather than a hand-typed copy: a copy edit changes what the tests expect along with the site.
 */
import path from "node:path";
import { loadCampaign } from "../../../src/content/campaigns";
import { formatContentErrors, loadContentFile } from "../../../src/content/load";
import type { CampaignContent } from "../../../src/content/schema";
import { REFERRALS_TRANSPORT } from "../../../shared/referral-program";
import { FIXTURE_FILE, loadTestContent, loadTestVariant, type FixtureChange, type TestSiteContent } from "../../support/content";
import { FIXTURE_PIXEL_ID } from "./build-site";

/** The fixture as the main build has it (transport client-api, no ad pixel). */
export const FIXTURE: TestSiteContent = loadTestContent();

/** What the second build changes in the fixture: the legacy-form transport and an ad pixel id. */
export const LEGACY_PIXEL_CHANGES: FixtureChange[] = [
  [["provider", "transport"], "legacy-form"],
  [["adPixel", "id"], FIXTURE_PIXEL_ID],
];

/**
 * The second build's content: the fixture with LEGACY_PIXEL_CHANGES, written to a
 * scratch file and loaded, as globalSetup builds it.
 * @throws Error listing the content errors when the variant is invalid
 */
export function legacyPixelContent(): TestSiteContent {
  return loadTestVariant(LEGACY_PIXEL_CHANGES);
}

/** Cloudflare's published Turnstile test site key that always passes (the service runs without Turnstile in these tests). */
export const TURNSTILE_TEST_SITE_KEY = "1x00000000000000000000AA";

/**
 * What the third build changes in the fixture: our own waitlist service (the transport the referral
 * program runs on), with a Turnstile widget, the referral program on, and an ad pixel (which the status
 * page must never load).
 */
export const WAITLIST_CHANGES: FixtureChange[] = [
  [["provider", "transport"], REFERRALS_TRANSPORT],
  [["provider", "turnstileSiteKey"], TURNSTILE_TEST_SITE_KEY],
  [["referrals", "enabled"], true],
  [["adPixel", "id"], FIXTURE_PIXEL_ID],
];

/**
 * The third build's content: the fixture with WAITLIST_CHANGES, as globalSetup builds it.
 * @throws Error listing the content errors when the variant is invalid
 */
export function waitlistContent(): TestSiteContent {
  return loadTestVariant(WAITLIST_CHANGES);
}

/** The fixture's campaign file: its page is built at /nba-ads/. */
export const FIXTURE_CAMPAIGN_FILE = path.join(path.dirname(FIXTURE_FILE), "campaigns", "nba-ads.yaml");

/** A campaign page's content and address. */
export interface CampaignPage {
  /** The page's path, e.g. "/nba-ads/". */
  pagePath: string;
  /** The campaign file merged over the fixture. */
  content: CampaignContent;
}

/**
 * The fixture campaign page, merged over the fixture as the build merges it.
 * @throws Error with the content errors when the campaign file is invalid
 */
export function fixtureCampaign(file = FIXTURE_CAMPAIGN_FILE): CampaignPage {
  const site = loadContentFile(FIXTURE_FILE);
  if (!site.ok) throw new Error(formatContentErrors(site.errors));
  const { pagePath, result } = loadCampaign(file, site.content, FIXTURE_FILE);
  if (!result.ok) throw new Error(formatContentErrors(result.errors));
  return { pagePath, content: result.content };
}
