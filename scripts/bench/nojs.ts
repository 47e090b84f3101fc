/** The bench's no-JavaScript floor: the home page exactly as built but with every script taken out. */
import { cp, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

/** `<script …>…</script>`, inline or external, any type (JSON-LD and Gatsby's loader included). */
const SCRIPT_ELEMENT = /<script\b[^>]*>[\s\S]*?<\/script\s*>/gi;
/** `<link>` elements that fetch script ahead of time: preload/modulepreload/prefetch with as=script, or an href to a .js file. */
const SCRIPT_HINT =
  /<link\b(?=[^>]*\brel=["']?(?:preload|modulepreload|prefetch)\b)(?=[^>]*(?:\bas=["']?script\b|\bhref=["'][^"']*\.m?js["'?#]))[^>]*>/gi;

/** What was removed from the page. */
export interface NoJsCopy {
  /** The site copy to serve; only its index.html differs from public/. */
  dir: string;
  removedScripts: number;
  removedScriptHints: number;
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
 * Copies `publicDir` to a new temporary `public-nojs/` and strips the scripts from its `index.html`,
 * so the floor is served with the same assets, headers and server as the real page.
 * @throws if the stripped page still contains a script element (the floor would be wrong)
 */
export async function makeNoJsCopy(publicDir: string): Promise<NoJsCopy> {
  const dir = path.join(await mkdtemp(path.join(tmpdir(), "bench-")), "public-nojs");
  await cp(publicDir, dir, { recursive: true });
  const indexFile = path.join(dir, "index.html");
  const stripped = stripScripts(await readFile(indexFile, "utf8"));
  if (/<script\b/i.test(stripped.html)) throw new Error(`${indexFile}: a <script> survived stripping`);
  await writeFile(indexFile, stripped.html);
  return { dir, removedScripts: stripped.removedScripts, removedScriptHints: stripped.removedScriptHints };
}
