/**
 * jest globalSetup of the browser project: check Chromium is there, start the provider
 * stand-in, build the fixture site once against it, and serve the build (twice: as it
 * is, and with the headers of `public/_headers` applied).
 * Runs in jest's main process; globalTeardown (same process) stops what it started.
 */
import { buildFixtureSite, PUBLIC_DIR } from "./build-site";
import { findChromium } from "../../../scripts/lib/chromium";
import { startProviderStandIn } from "./provider-stand-in";
import { PROVIDER_ORIGIN_VAR, SITE_ORIGIN_VAR, SITE_ORIGIN_WITH_HEADERS_VAR } from "./run-env";
import { startStaticServer } from "../../../scripts/lib/static-server";

/** What globalTeardown has to stop (jest shares globalThis between the two hooks only). */
export interface BrowserTestServers {
  close(): Promise<void>;
}

declare global {
  // eslint-disable-next-line no-var
  var __browserTestServers: BrowserTestServers | undefined;
}

export default async function globalSetup(): Promise<void> {
  // Fail, never skip: a CI run without a browser must not pass silently. This throws with the install command.
  findChromium();

  const standIn = await startProviderStandIn();
  const closers: (() => Promise<void>)[] = [standIn.close];
  globalThis.__browserTestServers = { close: () => Promise.all(closers.map((close) => close())).then(() => undefined) };

  process.stderr.write(`\nbrowser tests: building the fixture site (signups go to ${standIn.subscribeUrl})…\n`);
  try {
    await buildFixtureSite(standIn.subscribeUrl);
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
