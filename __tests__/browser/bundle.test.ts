/**
 * What the fixture build ships to browsers: the content schema (zod) and the YAML
 * parser stay at build time (issue 4), and the signup code is there.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { PUBLIC_DIR } from "./support/build-site";

/** Every JavaScript file in the build output, with its text. */
function builtScripts(): { file: string; text: string }[] {
  return readdirSync(PUBLIC_DIR, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".js"))
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
