import { chromium } from "playwright-core";
import { CHROMIUM_ARGS, findChromium } from "../scripts/lib/chromium";
import { startWranglerDev } from "../scripts/lib/wrangler";
const TOKEN = "Vb3kq9ZxT1mN8pL2rS6wYa";
async function main() {
  const dev = await startWranglerDev({ assetsDir: "/tmp/probe-v13pw5/public-waitlist", persistTo: "/tmp/probe-v13pw5/state", vars: { KLAVIYO_PRIVATE_API_KEY: "", TURNSTILE_SECRET_KEY: "", IP_HASH_SALT: "", KLAVIYO_WEBHOOK_SECRET: "x" } });
  const browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS, headless: true });
  for (const pattern of [/app-[0-9a-f]+\.js$/, /component---src-pages-status/, /page-data\/status\/page-data\.json/, /app-data\.json/, /framework-/, /webpack-runtime-/, /\/sq\/d\//]) {
    const context = await browser.newContext({ baseURL: dev.origin });
    const page = await context.newPage();
    let dropped = 0;
    await page.route(pattern, (r) => (dropped++ === 0 ? r.abort("connectionreset") : r.continue()));
    await page.route("**/api/status", (r) => r.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify({ referralCode: "K7QM2XPD", referralUrl: "http://x/?ref=K7QM2XPD", position: 1234, referrals: 2, entries: 3, statusUrl: "http://x/status/#t=Vb3kq9ZxT1mN8pL2rS6wYa" }) }));
    const errs: string[] = [];
    page.on("pageerror", (e) => errs.push(e.message.slice(0, 80)));
    page.on("console", (m) => m.type() === "error" && errs.push(m.text().slice(0, 80)));
    await page.goto(`/status/#t=${TOKEN}`);
    const ok = await page.getByRole("heading", { level: 2, name: /1,234/ }).waitFor({ timeout: 12000 }).then(() => true, () => false);
    console.log(String(pattern), "dropped", dropped, ok ? "STANDING SHOWN" : "NO STANDING", errs.join(" | "));
    await context.close();
  }
  await browser.close(); await dev.stop();
}
main();
