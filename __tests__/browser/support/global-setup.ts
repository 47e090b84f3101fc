/**
 * Playwright's globalSetup for the browser suite: starts the provider stand-in and builds the fixture three
 * times (legacy-form with a pixel; waitlist-api with Turnstile and referrals, served by `wrangler dev`;
 * client-api as it is). Runs in the runner's process before any worker starts; the workers inherit the
 * servers' origins through the environment (run-env.ts). The function it returns is the global teardown.
 */
import { createWriteStream } from "node:fs";
import { cp, mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { campaignsFolderFor } from "../../../src/content/campaigns";
import { buildFixtureSite, FIXTURE_CONTENT_FILE, PUBLIC_DIR, writeFixtureVariant } from "./build-site";
import { findChromium } from "../../../scripts/lib/chromium";
import { applyMigrations, startWranglerDev, type WranglerDev } from "../../../scripts/lib/wrangler";
import { LEGACY_PIXEL_CHANGES, WAITLIST_CHANGES } from "./fixture-content";
import { startProviderStandIn } from "./provider-stand-in";
import {
  LEGACY_PIXEL_SITE_ORIGIN_VAR,
  PROVIDER_ORIGIN_VAR,
  SITE_ORIGIN_VAR,
  SITE_ORIGIN_WITH_HEADERS_VAR,
  WAITLIST_OUTPUT_FILE_VAR,
  WAITLIST_SITE_ORIGIN_VAR,
  WAITLIST_ASSETS_DIR_VAR,
  WAITLIST_STATE_DIR_VAR,
  WAITLIST_WEBHOOK_SECRET,
} from "./run-env";
import { startStaticServer } from "../../../scripts/lib/static-server";

/**
 * The service's secrets, all empty but the webhook's: `--var` wins over a developer's `.dev.vars`. Empty means
 * demo delivery and no Turnstile check; the webhook secret lets a test confirm a friend as Klaviyo's flow would.
 */
const SERVICE_VARS = {
  KLAVIYO_PRIVATE_API_KEY: "",
  TURNSTILE_SECRET_KEY: "",
  IP_HASH_SALT: "",
  KLAVIYO_WEBHOOK_SECRET: WAITLIST_WEBHOOK_SECRET,
};

export default async function globalSetup(): Promise<() => Promise<void>> {
  // Fail, never skip: a CI run without a browser must not pass silently. This throws with the install command.
  findChromium();

  const standIn = await startProviderStandIn();
  const closers: (() => Promise<void>)[] = [standIn.close];
  // One after the other, in order: wrangler (put first once it is up) stops before the scratch folder it uses is deleted.
  const closeAll = async () => {
    for (const close of closers) await close();
  };

  const scratch = await mkdtemp(path.join(tmpdir(), "browser-tests-"));
  closers.push(() => rm(scratch, { recursive: true, force: true }));
  process.stderr.write(
    `\nbrowser tests: building the fixture site three times (legacy-form + pixel, waitlist-api + Turnstile + referrals, then client-api; signups go to ${standIn.origin} or the waitlist service)…\n`,
  );
  let waitlist: Promise<WranglerDev> | null = null;
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
    const stateDir = path.join(scratch, "waitlist-state");
    await mkdir(stateDir);
    // wrangler's output as `npm start` prints it, for the tests to read the local run's log lines (demo_status_link).
    const outputFile = path.join(scratch, "waitlist-output.log");
    const output = createWriteStream(outputFile);
    closers.push(() => new Promise<void>((resolve) => output.end(resolve)));
    // Migrating and starting workerd overlap the next build.
    waitlist = applyMigrations(stateDir).then(() =>
      startWranglerDev({ assetsDir: waitlistDir, persistTo: stateDir, vars: SERVICE_VARS, log: output }),
    );
    waitlist.then(
      (dev) => closers.unshift(dev.stop),
      () => undefined,
    );

    await buildFixtureSite({ endpointUrl: standIn.clientApiUrl, noScriptFormUrl: standIn.noScriptFormUrl });
    const site = await startStaticServer(PUBLIC_DIR);
    closers.push(site.close);
    process.env[SITE_ORIGIN_VAR] = site.origin;
    // The same build with public/_headers applied, as Netlify serves it (CSP tests).
    const siteWithHeaders = await startStaticServer(PUBLIC_DIR, { applyHeadersFile: true });
    closers.push(siteWithHeaders.close);
    process.env[SITE_ORIGIN_WITH_HEADERS_VAR] = siteWithHeaders.origin;

    const service = await waitlist;
    process.env[WAITLIST_SITE_ORIGIN_VAR] = service.origin;
    process.env[WAITLIST_STATE_DIR_VAR] = stateDir;
    process.env[WAITLIST_OUTPUT_FILE_VAR] = outputFile;
    process.env[WAITLIST_ASSETS_DIR_VAR] = waitlistDir;
  } catch (error) {
    // No teardown runs when globalSetup fails: stop the stand-in (and wrangler, once it is up) here.
    await waitlist?.catch(() => undefined);
    await closeAll();
    throw error;
  }

  process.env[PROVIDER_ORIGIN_VAR] = standIn.origin;
  return closeAll;
}
