/**
 * The operator's console's Content-Security-Policy, in one place: its own origin only, no third-party origin at all
 * (no Turnstile, no ad network, no CMS backend), so that no script but ours runs where an operator's Access session can
 * read and erase people. The build sends it on the console page with that page's inline scripts' hashes
 * (src/build/securityHeaders.ts, `_headers`); the Worker sends it with none on the answers it makes on the console's
 * host (worker/src/hosts.ts), which hold no script.
 */

/**
 * The policy's value.
 * @param scriptHashes CSP hash sources (`'sha256-…'`) of the inline scripts the page may run, in the order given; none
 *   for an answer with no script
 */
export function consolePolicy(scriptHashes: readonly string[] = []): string {
  const directives: [string, readonly string[]][] = [
    ["default-src", ["'self'"]],
    ["script-src", ["'self'", ...scriptHashes]],
    // styled-components and Radix write <style> tags and style attributes at run time.
    ["style-src", ["'self'", "'unsafe-inline'"]],
    ["img-src", ["'self'", "data:"]],
    ["font-src", ["'self'"]],
    ["connect-src", ["'self'"]],
    ["form-action", ["'self'"]],
    ["manifest-src", ["'self'"]],
    ["object-src", ["'none'"]],
    ["base-uri", ["'self'"]],
    ["frame-ancestors", ["'none'"]],
  ];
  return directives.map(([name, sources]) => [name, ...sources].join(" ")).join("; ");
}
