/** The bench's no-JavaScript floor: each audited page exactly as built but with every script taken out. */
import { cp, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { compress, PRECOMPRESSED_ENCODINGS } from "../lib/precompress";

/** `<script …>…</script>`, inline or external, any type (JSON-LD and Gatsby's loader included). */
const SCRIPT_ELEMENT = /<script\b[^>]*>[\s\S]*?<\/script\s*>/gi;
/** `<link>` elements that fetch script ahead of time: preload/modulepreload/prefetch with as=script, or an href to a .js file. */
const SCRIPT_HINT =
  /<link\b(?=[^>]*\brel=["']?(?:preload|modulepreload|prefetch)\b)(?=[^>]*(?:\bas=["']?script\b|\bhref=["'][^"']*\.m?js["'?#]))[^>]*>/gi;

/** The floor site, and what was removed from its pages. */
export interface NoJsCopy {
  /** The site copy to serve; only the audited pages' index.html (and their precompressed copies) differ. */
  dir: string;
  /** Per page path: script elements and script hints removed. */
  removed: Record<string, { scripts: number; scriptHints: number }>;
}

/**
 * Removes every `<script>` element and every script preload/prefetch hint from an HTML document.
 * Everything else (markup, inline styles from styled-components, other links) is kept byte for byte.
 */
export function stripScripts(html: string): { html: string; removedScripts: number; removedScriptHints: number } {
  const removedScripts = html.match(SCRIPT_ELEMENT)?.length ?? 0;
  const withoutScripts = html.replace(SCRIPT_ELEMENT, "");
  const removedScriptHints = withoutScripts.match(SCRIPT_HINT)?.length ?? 0;
  return { html: withoutScripts.replace(SCRIPT_HINT, ""), removedScripts, removedScriptHints };
}

/**
 * Copies the served (precompressed) site to a temporary `public-nojs/` and strips the scripts from each
 * page in `pagePaths`, so each floor is served with the same assets, headers and compression as the page.
 * @throws if a stripped page still contains a script element (the floor would be wrong)
 */
export async function makeNoJsCopy(servedDir: string, pagePaths: readonly string[]): Promise<NoJsCopy> {
  const dir = path.join(await mkdtemp(path.join(tmpdir(), "bench-")), "public-nojs");
  await cp(servedDir, dir, { recursive: true });
  const removed: NoJsCopy["removed"] = {};
  for (const pagePath of pagePaths) {
    const indexFile = path.join(dir, pagePath, "index.html");
    const stripped = stripScripts(await readFile(indexFile, "utf8"));
    if (/<script\b/i.test(stripped.html)) throw new Error(`${indexFile}: a <script> survived stripping`);
    await writeFile(indexFile, stripped.html);
    for (const { encoding, suffix } of PRECOMPRESSED_ENCODINGS) {
      await writeFile(`${indexFile}${suffix}`, await compress(Buffer.from(stripped.html), encoding));
    }
    removed[pagePath] = { scripts: stripped.removedScripts, scriptHints: stripped.removedScriptHints };
  }
  return { dir, removed };
}
