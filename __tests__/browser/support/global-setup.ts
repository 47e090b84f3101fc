/**
 * Playwright's globalSetup for the browser suite: starts the provider stand-in and builds the fixture three
 * times (legacy-form with a pixel; waitlist-api with Turnstile and referrals, which each worker serves with a
 * `wrangler dev` of its own: worker-service.ts; client-api as it is). Runs in the runner's process before any worker starts; the workers inherit the
 * servers' origins through the environment (run-env.ts). The function it returns is the global teardown.
 */
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { campaignsFolderFor } from "../../../src/content/campaigns";
import { buildFixtureSite, FIXTURE_CONTENT_FILE, PUBLIC_DIR, writeFixtureVariant } from "./build-site";
import { findTestChromium } from "../../../scripts/lib/chromium";
import { LEGACY_PIXEL_CHANGES, WAITLIST_CHANGES } from "./fixture-content";
import { startProviderStandIn } from "./provider-stand-in";
import {
  LEGACY_PIXEL_SITE_ORIGIN_VAR,
  PROVIDER_ORIGIN_VAR,
  SITE_ORIGIN_VAR,
  SITE_ORIGIN_WITH_HEADERS_VAR,
  WAITLIST_ASSETS_DIR_VAR,
} from "./run-env";
import { startStaticServer } from "../../../scripts/lib/static-server";

export default async function globalSetup(): Promise<() => Promise<void>> {
  // Fail, never skip: a CI run without a browser must not pass silently. This throws with the install command.
  findTestChromium();

  const standIn = await startProviderStandIn();
  const closers: (() => Promise<void>)[] = [standIn.close];
  // One after the other, in order.
  const closeAll = async () => {
    for (const close of closers) await close();
  };

  const scratch = await mkdtemp(path.join(tmpdir(), "browser-tests-"));
  closers.push(() => rm(scratch, { recursive: true, force: true }));
  process.stderr.write(
    `\nbrowser tests: building the fixture site three times (legacy-form + pixel, waitlist-api + Turnstile + referrals, then client-api; signups go to ${standIn.origin} or the waitlist service)…\n`,
  );
  try {
    const legacyPixelContent = writeFixtureVariant(path.join(scratch, "site-legacy-pixel.yaml"), LEGACY_PIXEL_CHANGES);
    // The fixture's campaign pages too, so that the legacy-form payload is checked on a campaign page.
    await cp(campaignsFolderFor(FIXTURE_CONTENT_FILE), campaignsFolderFor(legacyPixelContent), { recursive: true });
    await buildFixtureSite({
      contentFile: legacyPixelContent,
      endpointUrl: standIn.legacySubscribeUrl,
      noScriptFormUrl: standIn.noScriptFormUrl,
    });
    const legacyPixelDir = path.join(scratch, "public-legacy-pixel");
    await cp(PUBLIC_DIR, legacyPixelDir, { recursive: true });
    // With its public/_headers applied, as a static host serves it: the pixel's consent question is an inline
    // script, which runs only if the Content-Security-Policy lists its hash.
    const legacyPixelSite = await startStaticServer(legacyPixelDir, { applyHeadersFile: true });
    closers.push(legacyPixelSite.close);
    process.env[LEGACY_PIXEL_SITE_ORIGIN_VAR] = legacyPixelSite.origin;

    // The waitlist service's own build: its endpoint is /api/signups on its own origin, so no endpoint override.
    const waitlistContent = writeFixtureVariant(path.join(scratch, "site-waitlist.yaml"), WAITLIST_CHANGES);
    await cp(campaignsFolderFor(FIXTURE_CONTENT_FILE), campaignsFolderFor(waitlistContent), { recursive: true });
    await buildFixtureSite({ contentFile: waitlistContent, turnstileScriptUrl: standIn.turnstileScriptUrl });
    const waitlistDir = path.join(scratch, "public-waitlist");
    await cp(PUBLIC_DIR, waitlistDir, { recursive: true });
    process.env[WAITLIST_ASSETS_DIR_VAR] = waitlistDir;

    await buildFixtureSite({ endpointUrl: standIn.clientApiUrl, noScriptFormUrl: standIn.noScriptFormUrl });
    const site = await startStaticServer(PUBLIC_DIR);
    closers.push(site.close);
    process.env[SITE_ORIGIN_VAR] = site.origin;
    // The same build with public/_headers applied, as Netlify serves it (CSP tests).
    const siteWithHeaders = await startStaticServer(PUBLIC_DIR, { applyHeadersFile: true });
    closers.push(siteWithHeaders.close);
    process.env[SITE_ORIGIN_WITH_HEADERS_VAR] = siteWithHeaders.origin;
  } catch (error) {
    // No teardown runs when globalSetup fails: stop the stand-in and the servers here.
    await closeAll();
    throw error;
  }

  process.env[PROVIDER_ORIGIN_VAR] = standIn.origin;
  return closeAll;
}
