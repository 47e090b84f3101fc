import { chromium } from "playwright-core";
import { CHROMIUM_ARGS, findChromium } from "../scripts/lib/chromium";
import { startWranglerDev } from "../scripts/lib/wrangler";
async function main() {
  const dev = await startWranglerDev({ assetsDir: "/tmp/probe-4QA5yI/public-waitlist", persistTo: "/tmp/probe-4QA5yI/state", vars: { KLAVIYO_PRIVATE_API_KEY: "", TURNSTILE_SECRET_KEY: "", IP_HASH_SALT: "", KLAVIYO_WEBHOOK_SECRET: "x" } });
  const browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS, headless: true });
  for (const path of ["/status/#t=abc", "/status/", "/success/", "/"]) {
    const context = await browser.newContext({ baseURL: dev.origin });
    const page = await context.newPage();
    await page.addInitScript(() => { (window as any).__lcp = []; new PerformanceObserver((l) => l.getEntries().forEach((e) => (window as any).__lcp.push(Math.round(e.startTime)))).observe({ type: "largest-contentful-paint", buffered: true }); });
    await page.goto(path);
    await page.waitForTimeout(5000);
    console.log(path, await page.evaluate(() => JSON.stringify({ paint: performance.getEntriesByType("paint").map((e) => [e.name, Math.round(e.startTime)]), lcp: (window as any).__lcp, nav: Math.round((performance.getEntriesByType("navigation")[0] as any).domContentLoadedEventEnd), scripts: performance.getEntriesByType("resource").filter((e) => e.name.endsWith(".js")).map((e) => Math.round(e.startTime)).slice(0, 3) })));
    await context.close();
  }
  await browser.close(); await dev.stop();
}
main();
