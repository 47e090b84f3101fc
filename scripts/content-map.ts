/**
 * Draws `docs/content-map.png` for CONTENT.md: the signup page with each part outlined and numbered
 * by the content field it shows. Usage (after `npm run build`): `tsx scripts/content-map.ts`
 */
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS, findChromium } from "./lib/chromium";
import { startStaticServer } from "./lib/static-server";

const OUTPUT = path.join("docs", "content-map.png");

/** What gets a numbered outline: a CSS selector on the built page, and the YAML field(s) it shows. */
export const CONTENT_MAP: { selector: string; field: string }[] = [
  { selector: "main img", field: "site.logo (src, alt)" },
  { selector: "main img + span", field: "site.brandName" },
  { selector: "main h1", field: "home.title" },
  { selector: "[role=timer]", field: "home.countdown (days, hours, minutes, seconds)" },
  { selector: "[role=timer] + p", field: "home.tagline" },
  { selector: "#signup-heading", field: "home.form.heading" },
  { selector: "div:has(> #signup-email)", field: "home.form.email (label, placeholder)" },
  { selector: "div:has(> #signup-first-name)", field: "home.form.firstName (label, placeholder)" },
  { selector: "div:has(> #signup-last-name)", field: "home.form.lastName (label, placeholder)" },
  { selector: "form button[type=submit]", field: "home.form.submit (and .submitting)" },
  { selector: "main a[target=_blank]", field: "links.social (url, label)" },
  { selector: "main a[target=_blank] + p", field: "home.privacyNote" },
  { selector: "main ul", field: "home.badges (ssl, gdpr: label, tooltip)" },
  { selector: "div[aria-hidden=true] > span", field: "decorations.odds" },
];

async function main(): Promise<void> {
  if (!existsSync(path.join("public", "index.html"))) throw new Error("No public/index.html: run npm run build first.");
  const server = await startStaticServer("public");
  try {
    const browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
    try {
      const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      await page.goto(`${server.origin}/`, { waitUntil: "networkidle" });
      // Freeze the floating decoration so the outline sits on it.
      await page.addStyleTag({ content: "*, *::before, *::after { animation: none !important; transition: none !important; }" });
      const missing = await page.evaluate((map) => {
        const notFound: string[] = [];
        const layer = document.createElement("div");
        layer.style.cssText =
          "position:absolute;left:0;top:0;width:100%;pointer-events:none;z-index:99999;font:600 13px/1.2 system-ui,sans-serif";
        const legend = document.createElement("ol");
        legend.style.cssText =
          "position:fixed;left:24px;top:24px;margin:0;padding:14px 18px 14px 40px;background:#fff;color:#111;border-radius:8px;z-index:100000;font:500 14px/1.6 system-ui,sans-serif;box-shadow:0 4px 20px rgba(0,0,0,.4)";
        const title = document.createElement("div");
        title.textContent = "Fields in content/site.yaml";
        title.style.cssText = "margin-left:-22px;font-weight:700";
        legend.append(title);
        map.forEach(({ selector, field }, index) => {
          const element = document.querySelector(selector);
          if (!element) {
            notFound.push(selector);
            return;
          }
          const box = element.getBoundingClientRect();
          const outline = document.createElement("div");
          outline.style.cssText = `position:absolute;left:${box.left + window.scrollX - 4}px;top:${box.top + window.scrollY - 4}px;width:${box.width + 8}px;height:${box.height + 8}px;border:2px solid #ffd400;border-radius:6px`;
          const badge = document.createElement("span");
          badge.textContent = String(index + 1);
          badge.style.cssText =
            "position:absolute;left:-14px;top:-14px;min-width:22px;height:22px;padding:0 4px;box-sizing:border-box;border-radius:11px;background:#ffd400;color:#111;display:flex;align-items:center;justify-content:center";
          outline.append(badge);
          layer.append(outline);
          const item = document.createElement("li");
          item.textContent = field;
          legend.append(item);
        });
        document.body.append(layer, legend);
        return notFound;
      }, CONTENT_MAP);
      if (missing.length) throw new Error(`Not on the page (did a component change?): ${missing.join(", ")}`);
      mkdirSync(path.dirname(OUTPUT), { recursive: true });
      await page.screenshot({ path: OUTPUT, fullPage: true });
      console.log(`Wrote ${OUTPUT}`);
    } finally {
      await browser.close();
    }
  } finally {
    await server.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
