/**
 * The browser project refuses to run without Chromium, and says how to install it
 * (globalSetup throws this message; a silent skip would let CI pass untested).
 */
import { CHROMIUM_PATH, missingChromiumMessage } from "./support/browser";

it("names the install step when Chromium is missing", () => {
  const message = missingChromiumMessage("/nonexistent/chromium");
  expect(message).toContain("/nonexistent/chromium");
  expect(message).toContain("apt-get install -y chromium");
});

it("finds Debian's Chromium on this machine", () => {
  expect(missingChromiumMessage()).toBeNull();
  expect(CHROMIUM_PATH).toBe("/usr/bin/chromium");
});
