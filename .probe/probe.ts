import { cp, mkdir, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";
import { campaignsFolderFor } from "../src/content/campaigns";
import { buildFixtureSite, FIXTURE_CONTENT_FILE, PUBLIC_DIR, writeFixtureVariant } from "../__tests__/browser/support/build-site";
import { WAITLIST_CHANGES, waitlistContent } from "../__tests__/browser/support/fixture-content";
import { CHROMIUM_ARGS, findChromium } from "../scripts/lib/chromium";
import { applyMigrations, startWranglerDev } from "../scripts/lib/wrangler";

const TOKEN = "Vb3kq9ZxT1mN8pL2rS6wYa";
async function main() {
  const scratch = process.env.SCRATCH ?? (await mkdtemp(path.join(tmpdir(), "probe-")));
  const waitlistDir = path.join(scratch, "public-waitlist");
  if (!process.env.SCRATCH) {
    const content = writeFixtureVariant(path.join(scratch, "site-waitlist.yaml"), WAITLIST_CHANGES);
    await cp(campaignsFolderFor(FIXTURE_CONTENT_FILE), campaignsFolderFor(content), { recursive: true });
    await buildFixtureSite({ contentFile: content, turnstileScriptUrl: "http://127.0.0.1:1/turnstile.js" });
    await cp(PUBLIC_DIR, waitlistDir, { recursive: true });
    console.log("SCRATCH", scratch);
  }
  const stateDir = path.join(scratch, "state");
  await mkdir(stateDir, { recursive: true });
  await applyMigrations(stateDir);
  const dev = await startWranglerDev({ assetsDir: waitlistDir, persistTo: stateDir, vars: { KLAVIYO_PRIVATE_API_KEY: "", TURNSTILE_SECRET_KEY: "", IP_HASH_SALT: "", KLAVIYO_WEBHOOK_SECRET: "x" } });
  const C = waitlistContent();
  const HEADLINE = C.referrals.position.replace("{position}", "1,234");
  const STANDING = { referralCode: "K7QM2XPD", referralUrl: `${C.site.url}/?ref=K7QM2XPD`, position: 1234, referrals: 2, entries: 3, statusUrl: `${C.site.url}/status/#t=${TOKEN}` };
  const browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS, headless: true });
  const N = Number(process.env.N ?? 20);
  let fails = 0;
  for (let i = 0; i < N; i++) {
    (globalThis as any).__firstDone = false;
    const context = await browser.newContext({ baseURL: dev.origin });
    await context.route("**/*", (r) => (new URL(r.request().url()).hostname === "127.0.0.1" ? r.continue() : r.abort("blockedbyclient")));
    const page = await context.newPage();
    const log: string[] = [];
    const t0 = Date.now();
    const at = () => `${Date.now() - t0}ms`;
    page.on("console", (m) => log.push(`${at()} console.${m.type()}: ${m.text()}`));
    page.on("pageerror", (e) => log.push(`${at()} pageerror: ${e.message}`));
    page.on("request", (r) => log.push(`${at()} req ${r.method()} ${r.url()}`));
    page.on("requestfailed", (r) => log.push(`${at()} failed ${r.url()} ${r.failure()?.errorText}`));
    page.on("framenavigated", (f) => { if (f === page.mainFrame()) log.push(`${at()} navigated ${f.url()}`); });
    const dJs = Number(process.env.DELAY_JS ?? 0), dPd = Number(process.env.DELAY_PD ?? 0), dApi = Number(process.env.DELAY_API ?? 0);
    if (dJs || dPd) await page.route(/\.(js|json)$/, async (route) => {
      const u = route.request().url();
      const d = u.includes("page-data") ? dPd : dJs;
      if (d) await new Promise((r) => setTimeout(r, Math.random() * d));
      await route.continue();
    });
    await page.route("**/api/status", async (route) => {
      if (dApi) await new Promise((r) => setTimeout(r, Math.random() * dApi));
      if (process.env.FIRST_API && !(globalThis as any).__firstDone) { (globalThis as any).__firstDone = true; log.push(`${at()} holding first`); await new Promise((r) => setTimeout(r, Number(process.env.FIRST_API))); }
      log.push(`${at()} routed /api/status auth=${route.request().headers().authorization}`);
      await route.fulfill({ status: 200, contentType: "application/json", headers: { "cache-control": "no-store" }, body: JSON.stringify(STANDING) });
    });
    const reload = i % 2 === 1;
    try {
      await page.goto(`/status/#t=${TOKEN}`);
      await page.getByRole("heading", { level: 2, name: HEADLINE }).waitFor({ timeout: 30_000 });
      if (reload) {
        log.push(`${at()} RELOAD`);
        await page.reload();
        await page.getByRole("heading", { level: 2, name: HEADLINE }).waitFor({ timeout: 30_000 });
      }
      console.log(`run ${i} ok ${at()} ${reload ? "(reload)" : ""}`);
    } catch (e) {
      fails++;
      console.log(`run ${i} FAILED ${reload ? "(reload)" : ""}: ${(e as Error).message.split("\n")[0]}`);
      console.log("url:", page.url());
      console.log("main:", await page.locator("main").innerText().catch(() => "?"));
      console.log("h2:", await page.locator("h2").allInnerTexts().catch(() => "?"));
      console.log("hydrated:", await page.evaluate(() => { const w = document.getElementById("gatsby-focus-wrapper"); return w ? Object.keys(w).filter((k) => k.startsWith("__react")) : null; }));
      console.log("session:", await page.evaluate(() => JSON.stringify(sessionStorage)));
      console.log(log.join("\n"));
    }
    await context.close();
  }
  console.log(`fails ${fails}/${N}`);
  await browser.close();
  await dev.stop();
}
main().catch((e) => { console.error(e); process.exit(1); });
