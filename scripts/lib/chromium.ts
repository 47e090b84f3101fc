/**
 * The one Chromium every tool here drives: Debian's, never a downloaded build
 * (browser tests, the Lighthouse bench, the CONTENT.md screenshot).
 */

/** Debian's Chromium (`apt-get install -y chromium`, as .ci/run does). */
export const CHROMIUM_PATH = "/usr/bin/chromium";

/** Headless, no sandbox (containers run as root), and none of Chromium's own background traffic. */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
