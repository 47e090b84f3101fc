/**
 * The build step that starts Gatsby's scripts after the first paint: what it does to
 * a built page, and what it leaves alone.
 */
import { deferScripts, SCRIPT_LOADER_ID } from "../../src/build/deferScripts";
import { inlineScriptHashes } from "../../src/build/securityHeaders";
import { PAINT_WAIT_LIMIT_MS } from "../../src/lib/afterFirstPaint";
import { SCRIPT_LOAD_RETRIES, SCRIPT_RETRY_BASE_DELAY_MS } from "../../src/build/scriptRetry";

const SLICE = (body: string) => `<!-- slice-start id="_gatsby-scripts-1" -->${body}<!-- slice-end id="_gatsby-scripts-1" -->`;
const GATSBY_PAGE = `<html><head></head><body><div id="___gatsby"></div>${SLICE(
  `<script>window.___webpackCompilationHash="abc";</script><script src="/webpack-runtime-1.js" async></script><script src="/framework-2.js" async></script><script src="/app-3.js" async></script>`,
)}</body></html>`;

/** Run the built inline loader's text as the browser runs an inline script (the function is serialised, not imported). */
function runLoader(loader: string): void {
  (new Function(loader) as () => void)();
}

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
    runLoader(loader);
    expect(appended).toEqual([]);
    jest.advanceTimersByTime(PAINT_WAIT_LIMIT_MS);
  } finally {
    jest.useRealTimers();
    spy.mockRestore();
  }
  expect(appended).toEqual(["/webpack-runtime-1.js", "/framework-2.js", "/app-3.js"]);
});

it("adds a script that failed to load again, after a doubling wait, at most SCRIPT_LOAD_RETRIES times", () => {
  const loader = /<script id="[^"]+">([\s\S]*?)<\/script>/.exec(deferScripts(GATSBY_PAGE))?.[1] ?? "";
  const added: HTMLScriptElement[] = [];
  const spy = jest.spyOn(document.body, "appendChild").mockImplementation((node) => {
    added.push(node as HTMLScriptElement);
    return node;
  });
  const fail = (src: string) => {
    const script = added.filter((node) => node.getAttribute("src") === src).pop();
    // The loader takes the failed element out before it adds a new one.
    Object.defineProperty(script, "parentNode", { value: { removeChild: () => undefined } });
    script?.onerror?.(new Event("error"));
  };
  const count = (src: string) => added.filter((node) => node.getAttribute("src") === src).length;
  jest.useFakeTimers();
  try {
    runLoader(loader);
    jest.advanceTimersByTime(PAINT_WAIT_LIMIT_MS);
    expect(count("/app-3.js")).toBe(1);
    for (let retry = 0; retry < SCRIPT_LOAD_RETRIES; retry++) {
      fail("/app-3.js");
      jest.advanceTimersByTime(SCRIPT_RETRY_BASE_DELAY_MS * 2 ** retry - 1);
      expect(count("/app-3.js")).toBe(1 + retry);
      jest.advanceTimersByTime(1);
      expect(count("/app-3.js")).toBe(2 + retry);
    }
    fail("/app-3.js");
    jest.advanceTimersByTime(60_000);
    expect(count("/app-3.js")).toBe(1 + SCRIPT_LOAD_RETRIES);
    expect(count("/framework-2.js")).toBe(1);
  } finally {
    jest.useRealTimers();
    spy.mockRestore();
  }
});
