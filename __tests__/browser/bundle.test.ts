/**
 * What the fixture build ships to browsers: the content schema (zod) and the YAML
 * parser stay at build time (they would add their weight to every page), the signup code is there, and the operator's
 * console (its code, chart.js, Radix Dialog) is a chunk only /console/ loads.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { scriptsFetchedWithoutInteraction } from "../../scripts/bench/js-size";
import type { Browser } from "@playwright/test";
import { CONSOLE_PATH } from "../../shared/routes";
import { PUBLIC_DIR } from "./support/build-site";
import { consoleOrigin } from "./support/console-page";
import { expect, test } from "./support/fixtures";
import { FIXTURE, fixtureCampaign } from "./support/fixture-content";
import { runEnv } from "./support/run-env";

/** The web editor's own page; its prebuilt Decap CMS bundle is not the site's JavaScript and no site page loads it. */
const ADMIN_DIR = "admin";

/** Every JavaScript file the site's pages can load, with its text. */
function builtScripts(): { file: string; text: string }[] {
  return readdirSync(PUBLIC_DIR, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".js") && !file.startsWith(`${ADMIN_DIR}${path.sep}`))
    .map((file) => ({ file, text: readFileSync(path.join(PUBLIC_DIR, file), "utf8") }));
}

// Strings that survive minification in each library's code (class names and error texts).
const BUILD_TIME_ONLY = [
  ["zod", /ZodError|\$ZodType|invalid_union_discriminator/],
  ["yaml", /YAMLParseError|yaml-language-server|BLOCK_AS_IMPLICIT_KEY/],
  ["the content schema", /check-content|KLAVIYO_PUBLIC_KEY_PATTERN|did you mean/i],
] as const;

for (const [name, marker] of BUILD_TIME_ONLY) {
  test(`ships none of ${name} to the browser`, () => {
    const scripts = builtScripts();
    expect(scripts.length).toBeGreaterThan(3);
    expect(scripts.filter(({ text }) => marker.test(text)).map(({ file }) => file)).toEqual([]);
  });
}

test("ships the signup code (a control for the scan above)", () => {
  expect(builtScripts().some(({ text }) => text.includes("no-cors"))).toBe(true);
});

test("keeps the web editor on its own page: no site page loads its bundle, and it is not in the site's scripts", () => {
  const pages = readdirSync(PUBLIC_DIR, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".html"))
    .map((entry) => path.relative(PUBLIC_DIR, path.join(entry.parentPath, entry.name)))
    .filter((file) => !file.startsWith(`${ADMIN_DIR}${path.sep}`));
  expect(pages).toEqual(expect.arrayContaining(["index.html", "404.html"]));
  expect(pages.filter((file) => readFileSync(path.join(PUBLIC_DIR, file), "utf8").includes("decap-cms"))).toEqual([]);
  expect(readFileSync(path.join(PUBLIC_DIR, ADMIN_DIR, "index.html"), "utf8")).toContain('<script src="/admin/decap-cms.js"></script>');
  expect(
    builtScripts()
      .filter(({ text }) => /decap-cms|DecapCms|CMS_MANUAL_INIT/.test(text))
      .map(({ file }) => file),
  ).toEqual([]);
});

// Strings that survive minification in the console's code and the libraries only it uses.
const CONSOLE_ONLY = [
  ["the console's code", /\/api\/console/],
  ["chart.js", /Canvas is already in use/],
  ["Radix Dialog", /DialogContentModal/],
] as const;

/** The text of every same-origin script a fresh visit to `pagePath` (on `origin`: the site's unless given) fetches, by file. */
async function scriptsOf(browser: Browser, pagePath: string, origin = runEnv().siteOrigin): Promise<{ file: string; text: string }[]> {
  const files = await scriptsFetchedWithoutInteraction(browser, origin, pagePath);
  return files.map((file) => ({ file, text: readFileSync(path.join(PUBLIC_DIR, file), "utf8") }));
}

test.describe("the operator's console", () => {
  test("is prerendered as a shell kept out of search: its heading, the no-JavaScript message and a robots noindex", () => {
    const html = readFileSync(path.join(PUBLIC_DIR, "console", "index.html"), "utf8");
    expect(html).toMatch(/<meta [^>]*name="robots" content="noindex"/);
    expect(html).toContain(FIXTURE.console.heading);
    expect(html).toContain(`<noscript><p>${FIXTURE.console.noScript}</p></noscript>`);
  });

  for (const [name, marker] of CONSOLE_ONLY) {
    test(`loads ${name} on /console/ (a control for the scan below)`, async ({ browser }) => {
      expect(
        (await scriptsOf(browser, CONSOLE_PATH, consoleOrigin(runEnv().siteOrigin))).filter(({ text }) => marker.test(text)).length,
      ).toBeGreaterThan(0);
    });
  }

  test("ships none of its code, chart.js or Radix Dialog to a public page", async ({ browser }) => {
    const found: string[] = [];
    for (const pagePath of ["/", fixtureCampaign().pagePath, "/success/", "/giveaway/draw/", "/no-such-page/"]) {
      for (const { file, text } of await scriptsOf(browser, pagePath))
        for (const [name, marker] of CONSOLE_ONLY) if (marker.test(text)) found.push(`${pagePath}: ${name} in ${file}`);
    }
    expect(found).toEqual([]);
  });

  test("keeps its scripts out of every public page's HTML (no script tag or preload names them)", () => {
    const consoleFiles = builtScripts()
      .filter(({ text }) => CONSOLE_ONLY.some(([, marker]) => marker.test(text)))
      .map(({ file }) => path.basename(file));
    expect(consoleFiles.length).toBeGreaterThan(0);
    const pages = readdirSync(PUBLIC_DIR, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith(".html"))
      .map((entry) => path.relative(PUBLIC_DIR, path.join(entry.parentPath, entry.name)))
      .filter((file) => !file.startsWith(`${ADMIN_DIR}${path.sep}`) && !file.startsWith(`console${path.sep}`));
    expect(pages.length).toBeGreaterThan(3);
    const named = pages.flatMap((file) => {
      const html = readFileSync(path.join(PUBLIC_DIR, file), "utf8");
      return consoleFiles.filter((script) => html.includes(script)).map((script) => `${file} names ${script}`);
    });
    expect(named).toEqual([]);
  });
});
