/**
 * Snapshots of the prerendered HTML of the fixture build (what visitors and crawlers
 * get before any script runs): markup, copy, meta tags, the form's plain-HTML fallback.
 * Build-specific values are normalised (see support/normalize-html.ts), so a diff here
 * is a real change to review. The snapshots are text files in __snapshots__/built-html.test.ts/
 * (`playwright test --update-snapshots` rewrites them).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { PUBLIC_DIR } from "./support/build-site";
import { expect, test } from "./support/fixtures";
import { normalizeBuiltHtml } from "./support/normalize-html";

for (const file of ["index.html", "success/index.html", "404.html"]) {
  test(`public/${file} matches its snapshot`, () => {
    const html = readFileSync(path.join(PUBLIC_DIR, file), "utf8");
    expect(normalizeBuiltHtml(html)).toMatchSnapshot(`${file.replace(/[/.]/g, "-")}.txt`);
  });
}

test("prerenders the countdown as '--' when the launch was still ahead at build time", () => {
  const html = readFileSync(path.join(PUBLIC_DIR, "index.html"), "utf8");
  const timer = /<div role="timer"[\s\S]*?<\/div><\/div>/.exec(html)?.[0] ?? "";
  expect(timer.match(/>--</g)).toHaveLength(4);
});
