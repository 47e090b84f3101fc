/** The inline scripts of a built page, exactly as written: the CSP hashes them and the bench weighs them. Build-time only. */

// Gatsby's inline scripts are short and carry no "</script>" inside, so a pattern over its own output is exact;
// a CSP hash must be over the bytes exactly as they stand in the file, which an HTML parser would not guarantee.
const INLINE_SCRIPT = /<script\b(?![^>]*\bsrc=)([^>]*)>([\s\S]*?)<\/script\s*>/gi;

/** `type` values browsers run as JavaScript (no `type` at all counts too). */
const EXECUTABLE_TYPES = ["text/javascript", "module", "application/javascript"];

/**
 * The bodies of every executable inline script in `html`, in document order.
 * Data blocks (`type="application/json"`, `application/ld+json`…) are not scripts and are skipped.
 */
export function inlineScripts(html: string): string[] {
  const bodies: string[] = [];
  for (const [, attributes, body] of html.matchAll(INLINE_SCRIPT)) {
    const type = /\btype=["']?([^"'\s>]+)/i.exec(attributes)?.[1]?.toLowerCase();
    if (type && !EXECUTABLE_TYPES.includes(type)) continue;
    bodies.push(body);
  }
  return bodies;
}
