/**
 * jest globalSetup of the browser project: check Chromium is there, start the provider
 * stand-in, and build the fixture against it:
 * - a variant with `provider.transport: legacy-form` and an ad pixel id (the legacy-form
 *   and pixel tests), copied out of `public/` and served on its own;
 * - a variant with the referral program on (`provider.transport: waitlist-api`,
 *   `referrals.enabled: true`; the referral tests route its /api/ answers), served on its own;
 * - the fixture as it is (client-api, no pixel), left in `public/` and served twice: as it
 *   is, and with the headers of `public/_headers` applied.
 * Runs in jest's main process; globalTeardown (same process) stops what it started.
 */
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { campaignsFolderFor } from "../../../src/content/campaigns";
import { REFERRALS_TRANSPORT } from "../../../src/referrals/program";
import { SIGNUP_TRANSPORTS } from "../../../src/signup/endpoints";
import { buildFixtureSite, FIXTURE_CONTENT_FILE, PUBLIC_DIR, writeFixtureVariant } from "./build-site";
import { findChromium } from "../../../scripts/lib/chromium";
import { LEGACY_PIXEL_CHANGES, REFERRALS_CHANGES } from "./fixture-content";
import { startProviderStandIn } from "./provider-stand-in";
import {
  LEGACY_PIXEL_SITE_ORIGIN_VAR,
  PROVIDER_ORIGIN_VAR,
  REFERRALS_SITE_ORIGIN_VAR,
  SITE_ORIGIN_VAR,
  SITE_ORIGIN_WITH_HEADERS_VAR,
} from "./run-env";
import { startStaticServer } from "../../../scripts/lib/static-server";

/** What globalTeardown has to stop (jest shares globalThis between the two hooks only). */
export interface BrowserTestServers {
  close(): Promise<void>;
}

declare global {
  var __browserTestServers: BrowserTestServers | undefined;
}

export default async function globalSetup(): Promise<void> {
  // Fail, never skip: a CI run without a browser must not pass silently. This throws with the install command.
  findChromium();

  const standIn = await startProviderStandIn();
  const closers: (() => Promise<void>)[] = [standIn.close];
  globalThis.__browserTestServers = { close: () => Promise.all(closers.map((close) => close())).then(() => undefined) };

  const scratch = await mkdtemp(path.join(tmpdir(), "browser-tests-"));
  closers.push(() => rm(scratch, { recursive: true, force: true }));
  const withReferrals = (SIGNUP_TRANSPORTS as readonly string[]).includes(REFERRALS_TRANSPORT);
  process.stderr.write(
    `\nbrowser tests: building the fixture site (legacy-form + pixel, ${withReferrals ? "the referral program, " : ""}then client-api; signups go to ${standIn.origin})…\n`,
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
    const legacyPixelSite = await startStaticServer(legacyPixelDir);
    closers.push(legacyPixelSite.close);
    process.env[LEGACY_PIXEL_SITE_ORIGIN_VAR] = legacyPixelSite.origin;

    // The referral program needs the waitlist service's transport: built once the signup code has it.
    if (withReferrals) {
      const referralsContentFile = writeFixtureVariant(path.join(scratch, "site-referrals.yaml"), REFERRALS_CHANGES);
      await buildFixtureSite({
        contentFile: referralsContentFile,
        endpointUrl: standIn.legacySubscribeUrl,
        noScriptFormUrl: standIn.noScriptFormUrl,
      });
      const referralsDir = path.join(scratch, "public-referrals");
      await cp(PUBLIC_DIR, referralsDir, { recursive: true });
      const referralsSite = await startStaticServer(referralsDir);
      closers.push(referralsSite.close);
      process.env[REFERRALS_SITE_ORIGIN_VAR] = referralsSite.origin;
    }

    await buildFixtureSite({ endpointUrl: standIn.clientApiUrl, noScriptFormUrl: standIn.noScriptFormUrl });
    const site = await startStaticServer(PUBLIC_DIR);
    closers.push(site.close);
    process.env[SITE_ORIGIN_VAR] = site.origin;
    // The same build with public/_headers applied, as Netlify serves it (CSP tests).
    const siteWithHeaders = await startStaticServer(PUBLIC_DIR, { applyHeadersFile: true });
    closers.push(siteWithHeaders.close);
    process.env[SITE_ORIGIN_WITH_HEADERS_VAR] = siteWithHeaders.origin;
  } catch (error) {
    // jest does not run globalTeardown when globalSetup fails: stop the stand-in here.
    await globalThis.__browserTestServers.close();
    throw error;
  }

  process.env[PROVIDER_ORIGIN_VAR] = standIn.origin;
}
