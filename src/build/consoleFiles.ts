/**
 * `public/console-files.json` (shared/console-files.ts): the files the console page needs, the only ones the Worker
 * serves on the console's host besides the page and its API. Taken from the build itself, so the list follows every
 * change of the bundle: the scripts webpack's chunk graph says the page can load (ConsoleChunksPlugin), the page data
 * Gatsby reads for it, and the same-origin files the page's HTML names (its scripts, its head's icons and manifest).
 * Build-time only.
 */
import { readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Compiler } from "webpack";
import { CONSOLE_FILES_PATH, type ConsoleFiles } from "../../shared/console-files";
import { CONSOLE_PATH } from "../../shared/routes";
import { scriptLoaderSources } from "./deferScripts";

/** Gatsby's runtime (webpack's runtime, React, the router and the app's wrappers), which every page loads first. */
const RUNTIME_CHUNK = "app";

/** Gatsby names a page component's chunk group `component---` and its source path, `/` and `.` as `-`. */
const PAGE_CHUNK_PREFIX = "component---";
const CONSOLE_PAGE_CHUNK = `${PAGE_CHUNK_PREFIX}src-pages-console-tsx`;

/** The page data Gatsby's runtime reads for every page, and the console page's own (relative to public/ too). */
const APP_DATA_PATH = "/page-data/app-data.json";
const CONSOLE_PAGE_DATA_PATH = `/page-data${CONSOLE_PATH}page-data.json`;

/** An element whose file the page loads by itself: a script, an image, a head link (not a link to another page). */
const LOADED_ELEMENT = /<(?:script|img|link)\b[^>]*>/g;

/** A `href` or `src` attribute that names a path of the site's own origin (not `//host/…`, not a URL), without its query. */
const OWN_PATH_ATTRIBUTE = /\s(?:href|src)="(\/(?!\/)[^"#?]*)[^"]*"/;

/** Head links that name another page or document rather than a file the page loads. */
const NOT_LOADED_REL = /\srel="(?:canonical|alternate|prev|next)"/;

/** What ConsoleChunksPlugin reads of a webpack chunk group. */
export interface ChunkGroupLike {
  name?: string | null;
  chunks: Iterable<{ files: Iterable<string> }>;
  childrenIterable: Iterable<ChunkGroupLike>;
}

/**
 * The scripts the console page can load: every file of Gatsby's runtime and of the console page's component, and of
 * every chunk group they import on demand, and theirs in turn (the console app, its chart, the runtime's lazy parts),
 * but not the other pages' components, which the runtime can import too (Gatsby's router knows every page).
 * @param runtime the `app` chunk group; `consolePage` the console page component's
 * @returns URL paths (`/<file>`), without source maps
 */
export function consoleScripts(runtime: ChunkGroupLike, consolePage: ChunkGroupLike): string[] {
  const seen = new Set<ChunkGroupLike>();
  const files = new Set<string>();
  const visit = (group: ChunkGroupLike) => {
    if (seen.has(group)) return;
    seen.add(group);
    for (const chunk of group.chunks) for (const file of chunk.files) if (!file.endsWith(".map")) files.add(`/${file}`);
    for (const child of group.childrenIterable)
      if (!child.name?.startsWith(PAGE_CHUNK_PREFIX) || child.name === CONSOLE_PAGE_CHUNK) visit(child);
  };
  visit(runtime);
  visit(consolePage);
  return [...files];
}

/**
 * A webpack plugin for the browser bundle (`build-javascript`) that keeps the console page's scripts (consoleScripts)
 * once the compilation is done, for onPostBuild's writeConsoleFiles.
 */
export class ConsoleChunksPlugin {
  /** The scripts, once a compilation is done; null before. */
  scripts: string[] | null = null;
  /** Why the last compilation gave none (its chunk groups lacked the runtime's or the console page's). */
  problem: string | null = null;

  apply(compiler: Compiler): void {
    compiler.hooks.done.tap("ConsoleChunksPlugin", ({ compilation }) => {
      const runtime = compilation.namedChunkGroups.get(RUNTIME_CHUNK);
      const consolePage = compilation.namedChunkGroups.get(CONSOLE_PAGE_CHUNK);
      this.scripts = runtime && consolePage ? consoleScripts(runtime, consolePage) : null;
      this.problem = this.scripts ? null : `the browser bundle has no chunk group ${runtime ? CONSOLE_PAGE_CHUNK : RUNTIME_CHUNK}`;
    });
  }
}

/** The own-origin paths of the files an HTML page loads by itself. */
function loadedFiles(html: string): string[] {
  return [...html.matchAll(LOADED_ELEMENT)].flatMap(([element]) => {
    const own = NOT_LOADED_REL.test(element) ? null : OWN_PATH_ATTRIBUTE.exec(element);
    return own ? [own[1]] : [];
  });
}

/** What the list is made of: the console page's build. */
export interface ConsoleBuild {
  /** The console page's HTML as it is served (after deferScripts). */
  consolePage: string;
  /** The scripts it can load (consoleScripts). */
  scripts: readonly string[];
  /** The console page data's `staticQueryHashes`: each query's result is a file of its own. */
  staticQueryHashes: readonly string[];
}

/** The console's files: URL paths, sorted, no duplicates, not the page itself. */
export function consoleFiles({ consolePage, scripts, staticQueryHashes }: ConsoleBuild): ConsoleFiles {
  const pageData = [APP_DATA_PATH, CONSOLE_PAGE_DATA_PATH, ...staticQueryHashes.map((hash) => `/page-data/sq/d/${hash}.json`)];
  const files = [...scripts, ...scriptLoaderSources(consolePage), ...loadedFiles(consolePage), ...pageData].filter(
    // The page is the host rule's own case.
    (file) => !file.startsWith(CONSOLE_PATH),
  );
  return { files: [...new Set(files)].sort() };
}

/**
 * Write `public/console-files.json` for the waitlist service's build; or delete one a previous build left when this
 * build has no service (or no console page).
 * @param service whether the build is the waitlist service's (`provider.transport: waitlist-api`)
 * @param consolePage the console page's HTML as served; undefined when the build has none
 * @param chunks the plugin that watched this build's browser bundle
 * @returns the file's path when it was written, else null
 * @throws Error when the plugin found no console scripts, or the console's page data cannot be read
 */
export async function writeConsoleFiles(
  publicDir: string,
  service: boolean,
  consolePage: string | undefined,
  chunks: Pick<ConsoleChunksPlugin, "scripts" | "problem">,
): Promise<string | null> {
  const file = path.join(publicDir, CONSOLE_FILES_PATH);
  if (!service || consolePage === undefined) {
    await rm(file, { force: true });
    return null;
  }
  if (!chunks.scripts) throw new Error(`The console's files cannot be listed: ${chunks.problem ?? "the browser bundle was not watched"}.`);
  const pageData = JSON.parse(await readFile(path.join(publicDir, CONSOLE_PAGE_DATA_PATH), "utf8")) as { staticQueryHashes?: string[] };
  const list = consoleFiles({ consolePage, scripts: chunks.scripts, staticQueryHashes: pageData.staticQueryHashes ?? [] });
  await writeFile(file, `${JSON.stringify(list, null, 2)}\n`);
  return file;
}
