/** A built page as stable snapshot text: what changes per build becomes a placeholder, one tag per line. */
import { SCRIPT_LOADER_ID } from "../../../src/build/deferScripts";

/** Placeholders left in the normalised text. */
export const PLACEHOLDERS = {
  hash: "[hash]",
  port: "[port]",
  styles: "[styled-components CSS]",
  version: "[version]",
  paintWait: "[afterFirstPaint]",
} as const;

/**
 * The inline script loader: `(<afterFirstPaint, minified>)(<function adding the scripts>,<limit ms>)`.
 * Its first part is embedded from gatsby-node's minified build, whose local names change
 * whenever gatsby-node is recompiled; its behaviour is tested on its own
 * (__tests__/unit/defer-scripts.test.ts, __tests__/browser/first-paint.test.ts). The scripts it adds stay in the snapshot.
 */
const SCRIPT_LOADER = new RegExp(`(<script id="${SCRIPT_LOADER_ID}">)\\(function[\\s\\S]*?\\)(\\(function\\(\\)\\{\\[)`);

/** Keep styled-components' readable ids (`SignupForm__Input`), drop their hashes and generated names. */
function normaliseClassList(classes: string): string {
  const tokens = classes.split(/\s+/).filter(Boolean);
  if (!tokens.some((token) => token.includes("-sc-"))) return classes;
  return tokens
    .filter((token) => token.includes("-sc-"))
    .map((token) => token.replace(/-sc-[0-9a-z]+-\d+$/, ""))
    .join(" ");
}

/**
 * Normalise one built page.
 * @returns one tag (with its text) per line, with build-specific values replaced
 */
export function normalizeBuiltHtml(html: string): string {
  return (
    html
      // Content-hashed bundles, e.g. app-1141a4bf98bdb058abbe.js, in src attributes and the chunk map.
      .replace(/-[0-9a-f]{20}\.(js|css)\b/g, `-${PLACEHOLDERS.hash}.$1`)
      .replace(/(___webpackCompilationHash=")[0-9a-f]+"/g, `$1${PLACEHOLDERS.hash}"`)
      .replace(/127\.0\.0\.1:\d+/g, `127.0.0.1:${PLACEHOLDERS.port}`)
      // Build times in ms since the epoch, should any appear.
      .replace(/\b1[6-9]\d{11}\b/g, "[timestamp]")
      .replace(/(content="Gatsby )[\d.]+"/, `$1${PLACEHOLDERS.version}"`)
      .replace(
        /<style data-styled="[^"]*" data-styled-version="[^"]*">[\s\S]*?<\/style>/,
        `<style data-styled>${PLACEHOLDERS.styles}</style>`,
      )
      .replace(SCRIPT_LOADER, `$1(${PLACEHOLDERS.paintWait})$2`)
      .replace(/ class="([^"]*)"/g, (_all, classes: string) => ` class="${normaliseClassList(classes)}"`)
      .replace(/></g, ">\n<")
      .split("\n")
      .map((line) => line.trim())
      .filter(Boolean)
      .join("\n")
  );
}
