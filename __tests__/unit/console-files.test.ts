/**
 * The build's list of the console's files (src/build/consoleFiles.ts), the only files the console's host serves: every
 * script the console page can load, and nothing a public page alone needs.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { ConsoleFilesSchema } from "../../shared/console-files";
import { consoleFiles, consoleScripts, writeConsoleFiles, type ChunkGroupLike } from "../../src/build/consoleFiles";
import { deferScripts } from "../../src/build/deferScripts";

/** A chunk group as webpack links them: its chunks' files, and the groups it imports on demand. */
function group(name: string | null, files: string[], children: ChunkGroupLike[] = []): ChunkGroupLike {
  return { name, chunks: [{ files: new Set(files) }], childrenIterable: children };
}

/** The runtime imports every page's component on demand, and a lazy part of its own (the toasts). */
const consoleApp = group(null, ["848-app.js", "848-app.js.map"], [group(null, ["ee-chart.js"])]);
const consolePage = group("component---src-pages-console-tsx", ["component---src-pages-console-tsx-1.js"], [consoleApp]);
const homePage = group("component---src-pages-index-tsx", ["component---src-pages-index-tsx-2.js"], [group(null, ["583-signup.js"])]);
const toasts = group(null, ["96-toasts.js"]);
const runtime = group("app", ["webpack-runtime-3.js", "framework-4.js", "app-5.js"], [consolePage, homePage, toasts]);

const SLICE = (body: string) => `<!-- slice-start id="_gatsby-scripts-1" -->${body}<!-- slice-end id="_gatsby-scripts-1" -->`;
/** The console page as Gatsby builds it: head links (one to another page), a link in the body, Gatsby's scripts. */
const CONSOLE_PAGE = deferScripts(
  `<html><head><link rel="canonical" href="https://example.com/console/"/><link rel="icon" href="/favicon.svg" type="image/svg+xml"/>` +
    `<link rel="icon" href="/favicon-32.png?v=2" sizes="32x32"/><link rel="manifest" href="/manifest.webmanifest"/>` +
    `<link rel="alternate" href="/feed.xml"/></head><body><a href="/">Home</a><a href="/success/">Done</a>` +
    SLICE(`<script src="/webpack-runtime-3.js" async></script><script src="/app-5.js" async></script>`) +
    `</body></html>`,
);

describe("the console's scripts", () => {
  it("are the runtime's and the console page's, with everything they import on demand, and no other page's", () => {
    expect(consoleScripts(runtime, consolePage).sort()).toEqual(
      [
        "/848-app.js",
        "/96-toasts.js",
        "/app-5.js",
        "/component---src-pages-console-tsx-1.js",
        "/ee-chart.js",
        "/framework-4.js",
        "/webpack-runtime-3.js",
      ].sort(),
    );
  });

  it("a group both reach, or one that imports itself back, is listed once and ends the walk", () => {
    const shared = group(null, ["shared.js"]);
    const loop = group(null, ["loop.js"]);
    (loop.childrenIterable as ChunkGroupLike[]).push(loop, shared);
    expect(
      consoleScripts(group("app", ["app.js"], [shared, loop]), group("component---src-pages-console-tsx", ["c.js"], [shared])).sort(),
    ).toEqual(["/app.js", "/c.js", "/loop.js", "/shared.js"].sort());
  });
});

describe("the list", () => {
  it("holds the scripts, the page data and the files the page's head loads, never a page the page links to", () => {
    const { files } = consoleFiles({
      consolePage: CONSOLE_PAGE,
      scripts: consoleScripts(runtime, consolePage),
      staticQueryHashes: ["123"],
    });
    expect(files).toEqual(
      [
        "/848-app.js",
        "/96-toasts.js",
        "/app-5.js",
        "/component---src-pages-console-tsx-1.js",
        "/ee-chart.js",
        "/favicon-32.png",
        "/favicon.svg",
        "/framework-4.js",
        "/manifest.webmanifest",
        "/page-data/app-data.json",
        "/page-data/console/page-data.json",
        "/page-data/sq/d/123.json",
        "/webpack-runtime-3.js",
      ].sort(),
    );
    expect(files).not.toContain("/");
    expect(files).not.toContain("/success/");
    expect(files).not.toContain("/feed.xml");
  });

  describe("written into public/", () => {
    let publicDir: string;

    beforeEach(async () => {
      publicDir = await mkdtemp(path.join(tmpdir(), "console-files-"));
      await mkdir(path.join(publicDir, "page-data", "console"), { recursive: true });
      await writeFile(path.join(publicDir, "page-data", "console", "page-data.json"), JSON.stringify({ staticQueryHashes: [] }));
    });

    afterEach(() => rm(publicDir, { recursive: true, force: true }));

    it("is a file the Worker's schema reads, for the waitlist service's build", async () => {
      const file = await writeConsoleFiles(publicDir, true, CONSOLE_PAGE, { scripts: ["/app-5.js"], problem: null });
      expect(file).toBe(path.join(publicDir, "console-files.json"));
      const parsed = ConsoleFilesSchema.parse(JSON.parse(await readFile(file!, "utf8")));
      expect(parsed.files).toContain("/app-5.js");
    });

    it("is removed from a build without the service, so no stale list stays behind", async () => {
      await writeFile(path.join(publicDir, "console-files.json"), "{}");
      expect(await writeConsoleFiles(publicDir, false, CONSOLE_PAGE, { scripts: ["/app-5.js"], problem: null })).toBeNull();
      await expect(readFile(path.join(publicDir, "console-files.json"))).rejects.toThrow();
    });

    it("stops the build when the bundle gave no console scripts, saying why", async () => {
      await expect(
        writeConsoleFiles(publicDir, true, CONSOLE_PAGE, { scripts: null, problem: "the browser bundle has no chunk group app" }),
      ).rejects.toThrow("the browser bundle has no chunk group app");
    });
  });
});
