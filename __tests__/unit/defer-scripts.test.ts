/**
 * The build step that starts Gatsby's scripts after the first paint: what it does to
 * a built page, and what it leaves alone.
 */
import { deferScripts, SCRIPT_LOADER_ID } from "../../src/build/deferScripts";
import { inlineScriptHashes } from "../../src/build/securityHeaders";
import { PAINT_WAIT_LIMIT_MS } from "../../src/root/afterFirstPaint";

const SLICE = (body: string) => `<!-- slice-start id="_gatsby-scripts-1" -->${body}<!-- slice-end id="_gatsby-scripts-1" -->`;
const GATSBY_PAGE = `<html><head></head><body><div id="___gatsby"></div>${SLICE(
  `<script>window.___webpackCompilationHash="abc";</script><script src="/webpack-runtime-1.js" async></script><script src="/framework-2.js" async></script><script src="/app-3.js" async></script>`,
)}</body></html>`;

it("replaces Gatsby's script tags by one loader that names the same files in the same order", () => {
  const html = deferScripts(GATSBY_PAGE);
  expect(html).not.toMatch(/<script src=/);
  expect(html).not.toMatch(/rel="preload"/);
  const loader = new RegExp(`<script id="${SCRIPT_LOADER_ID}">([\\s\\S]*?)</script>`).exec(html)?.[1] ?? "";
  expect([...loader.matchAll(/"(\/[^"]+\.js)"/g)].map((match) => match[1])).toEqual([
    "/webpack-runtime-1.js",
    "/framework-2.js",
    "/app-3.js",
  ]);
  expect(loader).toContain("largest-contentful-paint");
});

it("keeps Gatsby's inline scripts where they were, and the CSP hashes the loader with them", () => {
  const html = deferScripts(GATSBY_PAGE);
  expect(html).toContain('<script>window.___webpackCompilationHash="abc";</script>');
  expect(inlineScriptHashes(html)).toHaveLength(2);
});

it("is idempotent, and leaves pages without Gatsby's scripts slice alone", () => {
  const once = deferScripts(GATSBY_PAGE);
  expect(deferScripts(once)).toBe(once);
  const cmsPage = `<html><body><script src="https://unpkg.com/decap-cms/dist/decap-cms.js"></script></body></html>`;
  expect(deferScripts(cmsPage)).toBe(cmsPage);
});

it("writes a loader that runs on its own in a browser (the function is serialised, not imported)", () => {
  const loader = /<script id="[^"]+">([\s\S]*?)<\/script>/.exec(deferScripts(GATSBY_PAGE))?.[1] ?? "";
  const appended: string[] = [];
  const spy = jest.spyOn(document.body, "appendChild").mockImplementation((node) => {
    appended.push((node as HTMLScriptElement).getAttribute("src") ?? "");
    return node;
  });
  jest.useFakeTimers();
  try {
    // jsdom reports no paint at all: the loader must still start the scripts, a frame later at the latest.
    // Runs the built inline loader's text as the browser runs an inline script.
    (new Function(loader) as () => void)();
    expect(appended).toEqual([]);
    jest.advanceTimersByTime(PAINT_WAIT_LIMIT_MS);
  } finally {
    jest.useRealTimers();
    spy.mockRestore();
  }
  expect(appended).toEqual(["/webpack-runtime-1.js", "/framework-2.js", "/app-3.js"]);
});
