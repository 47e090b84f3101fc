/** The one Chromium every tool here drives: the one the machine already has, never a build a test tool downloads. */
import { existsSync } from "node:fs";
import { Launcher } from "chrome-launcher";

/** Debian's Chromium (`apt-get install -y chromium`, as .ci/run does): the last place looked. */
export const DEBIAN_CHROMIUM_PATH = "/usr/bin/chromium";

/**
 * Debian's headless shell (`apt-get install -y chromium-headless-shell`): the same Chromium build without the
 * desktop browser around it, what Playwright itself drives for headless runs. It needs far less of the processor
 * than the full browser in headless mode, which is what a 2-core machine running the browser suite is short of.
 */
export const DEBIAN_HEADLESS_SHELL_PATH = "/usr/bin/chromium-headless-shell";

/** The environment variable that names a browser binary; chrome-launcher and Lighthouse read it too. */
export const CHROME_PATH_VAR = "CHROME_PATH";

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

/** No usable browser was found; the message names the install command for this operating system. */
export class ChromiumNotFoundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ChromiumNotFoundError";
  }
}

/**
 * The command that installs Chromium on a `process.platform`.
 * @returns e.g. `apt-get install -y chromium` on Linux, `brew install --cask chromium` on macOS
 */
export function chromiumInstallCommand(platform: NodeJS.Platform): string {
  if (platform === "darwin") return "brew install --cask chromium";
  if (platform === "linux") return "apt-get install -y chromium";
  // Windows and the rest have no system package for it; Playwright's download works where downloads are allowed.
  return "npx playwright install chromium";
}

/** Where to look, given as arguments so that the search order can be tested. */
export interface ChromiumSearch {
  /** The environment (default `process.env`): `CHROME_PATH` wins when it is set. */
  env?: NodeJS.ProcessEnv;
  /** The operating system (default `process.platform`), for the install hint. */
  platform?: NodeJS.Platform;
  /** Installed Chrome and Chromium binaries, best first (default: chrome-launcher's search of macOS, Windows and Linux). */
  installations?: () => string[];
  /** Whether a path exists (default `fs.existsSync`). */
  exists?: (path: string) => boolean;
}

/** chrome-launcher's search; it throws on a machine with no browser at all, which here means "none found". */
function launcherInstallations(): string[] {
  try {
    return Launcher.getInstallations();
  } catch {
    return [];
  }
}

/**
 * The browser binary to drive, in this order: `CHROME_PATH`; then the installed Chrome or
 * Chromium that chrome-launcher finds (macOS, Windows, Linux); then Debian's `/usr/bin/chromium`.
 * @returns an absolute path to an existing executable
 * @throws ChromiumNotFoundError naming `CHROME_PATH` when it points nowhere (a typo must not
 *   silently test another browser), or the OS's install command when nothing is found
 */
export function findChromium(search: ChromiumSearch = {}): string {
  const { env = process.env, platform = process.platform, installations = launcherInstallations, exists = existsSync } = search;
  const fromEnv = env[CHROME_PATH_VAR];
  if (fromEnv) {
    if (exists(fromEnv)) return fromEnv;
    throw new ChromiumNotFoundError(
      `${CHROME_PATH_VAR} is set to ${fromEnv}, but there is no file there. Point it at a Chrome or Chromium binary, or unset it to use the browser this machine has.`,
    );
  }
  const found = [...installations(), DEBIAN_CHROMIUM_PATH].find((candidate) => exists(candidate));
  if (found) return found;
  throw new ChromiumNotFoundError(
    `No Chrome or Chromium was found on this machine. Install one with \`${chromiumInstallCommand(platform)}\`, or set ${CHROME_PATH_VAR} to a browser binary, then run the command again.`,
  );
}

/**
 * The browser binary the real-browser tests drive: `CHROME_PATH` when it is set; then Debian's headless shell when it
 * is installed; then what `findChromium` finds. The bench keeps the full browser, whose page loads it measures.
 * @returns an absolute path to an existing executable
 * @throws ChromiumNotFoundError as `findChromium` does
 */
export function findTestChromium(search: ChromiumSearch = {}): string {
  const { env = process.env, exists = existsSync } = search;
  if (!env[CHROME_PATH_VAR] && exists(DEBIAN_HEADLESS_SHELL_PATH)) return DEBIAN_HEADLESS_SHELL_PATH;
  return findChromium(search);
}
