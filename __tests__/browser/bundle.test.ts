/**
 * What the fixture build ships to browsers: the content schema (zod) and the YAML
 * parser stay at build time (they would add their weight to every page), and the signup code is there.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { PUBLIC_DIR } from "./support/build-site";

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

it.each(BUILD_TIME_ONLY)("ships none of %s to the browser", (_name, marker) => {
  const scripts = builtScripts();
  expect(scripts.length).toBeGreaterThan(3);
  expect(scripts.filter(({ text }) => marker.test(text)).map(({ file }) => file)).toEqual([]);
});

it("ships the signup code (a control for the scan above)", () => {
  expect(builtScripts().some(({ text }) => text.includes("no-cors"))).toBe(true);
});

it("keeps the web editor on its own page: no site page loads its bundle, and it is not in the site's scripts", () => {
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
