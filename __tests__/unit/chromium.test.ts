/**
 * @jest-environment node
 */
/**
 * Which browser the tests, the bench and the screenshot script drive: CHROME_PATH first,
 * then what chrome-launcher finds installed, then Debian's Chromium; and, when there is
 * none, a message with the install command for the newcomer's operating system. The browser
 * tests take Debian's headless shell before an installed desktop browser.
 */
import {
  ChromiumNotFoundError,
  DEBIAN_CHROMIUM_PATH,
  DEBIAN_HEADLESS_SHELL_PATH,
  findChromium,
  findTestChromium,
} from "../../scripts/lib/chromium";

const onDisk =
  (...paths: string[]) =>
  (path: string) =>
    paths.includes(path);

it("uses CHROME_PATH before any installed browser", () => {
  const found = findChromium({
    env: { CHROME_PATH: "/opt/chrome/chrome" },
    installations: () => ["/usr/bin/google-chrome"],
    exists: onDisk("/opt/chrome/chrome", "/usr/bin/google-chrome", DEBIAN_CHROMIUM_PATH),
  });
  expect(found).toBe("/opt/chrome/chrome");
});

it("refuses a CHROME_PATH that points nowhere instead of quietly using another browser", () => {
  const search = {
    env: { CHROME_PATH: "/typo/chrome" },
    installations: () => ["/usr/bin/google-chrome"],
    exists: onDisk("/usr/bin/google-chrome"),
  };
  expect(() => findChromium(search)).toThrow(ChromiumNotFoundError);
  expect(() => findChromium(search)).toThrow("CHROME_PATH is set to /typo/chrome, but there is no file there");
});

it("takes the installed Chrome that chrome-launcher finds, e.g. on a Mac", () => {
  const mac = "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome";
  expect(findChromium({ env: {}, platform: "darwin", installations: () => [mac], exists: onDisk(mac) })).toBe(mac);
});

it("falls back to Debian's /usr/bin/chromium", () => {
  expect(findChromium({ env: {}, platform: "linux", installations: () => [], exists: onDisk(DEBIAN_CHROMIUM_PATH) })).toBe(
    DEBIAN_CHROMIUM_PATH,
  );
});

it.each([
  ["linux", "apt-get install -y chromium"],
  ["darwin", "brew install --cask chromium"],
  ["win32", "npx playwright install chromium"],
] as const)("names the install command on %s when no browser is found", (platform, command) => {
  expect(() => findChromium({ env: {}, platform, installations: () => [], exists: () => false })).toThrow(command);
});

describe("the browser tests' browser", () => {
  it("is Debian's headless shell when it is installed, before the full Chromium", () => {
    const exists = onDisk(DEBIAN_HEADLESS_SHELL_PATH, DEBIAN_CHROMIUM_PATH);
    expect(findTestChromium({ env: {}, platform: "linux", installations: () => [DEBIAN_CHROMIUM_PATH], exists })).toBe(
      DEBIAN_HEADLESS_SHELL_PATH,
    );
  });

  it("is CHROME_PATH when it is set, even with the headless shell installed", () => {
    const exists = onDisk("/opt/chrome/chrome", DEBIAN_HEADLESS_SHELL_PATH);
    expect(findTestChromium({ env: { CHROME_PATH: "/opt/chrome/chrome" }, installations: () => [], exists })).toBe("/opt/chrome/chrome");
  });

  it("is the browser findChromium finds when there is no headless shell, e.g. on a Mac", () => {
    const mac = "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome";
    expect(findTestChromium({ env: {}, platform: "darwin", installations: () => [mac], exists: onDisk(mac) })).toBe(mac);
  });

  it("names the install command when there is no browser at all", () => {
    expect(() => findTestChromium({ env: {}, platform: "linux", installations: () => [], exists: () => false })).toThrow(
      "apt-get install -y chromium",
    );
  });
});
