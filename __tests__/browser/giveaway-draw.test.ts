/**
 * /giveaway/draw/ in a real browser, built from the fixture's draw file (__tests__/fixtures/giveaway/draw.json, a
 * draw on a recorded quicknet round): the commitment and the winners are on the page, Verify checks them in the
 * browser and says so, a visitor finds themselves by referral code, a tampered draw is reported with what does not
 * match, and the checking code (with @noble/curves) is fetched only once Verify is pressed.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, gotoHydrated, originOf, test, waitForHydration } from "./support/fixtures";
import { FIXTURE } from "./support/fixture-content";
import { escapeRegExp } from "./support/signup-page";
import { pseudonymOf, type DrawFile } from "../../shared/giveaway/draw-file";

const DRAW_FILE = JSON.parse(readFileSync(path.join(__dirname, "..", "fixtures", "giveaway", "draw.json"), "utf8")) as DrawFile;
const { draw } = FIXTURE;
/** The quicknet signature check's hash-to-curve tag: in the checking code's chunk and nowhere else. */
const CHECK_CODE_MARK = "BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_";

/** The bodies of every script the page fetches from now on. */
function scriptsOf(page: Page): Promise<string>[] {
  const bodies: Promise<string>[] = [];
  page.on("response", (response) => {
    if (response.request().resourceType() === "script") bodies.push(response.text());
  });
  return bodies;
}

test("shows the commitment and the winners, and Verify says the draw is verified", async ({ page }) => {
  await gotoHydrated(page, "/giveaway/draw/");
  await expect(page.getByRole("heading", { name: draw.heading })).toBeVisible();
  await expect(page.getByText(DRAW_FILE.listHash)).toBeVisible();
  const winners = page.getByRole("region", { name: draw.winnersHeading }).getByRole("listitem");
  await expect(winners).toHaveText(DRAW_FILE.result!.winners);

  await page.getByRole("button", { name: draw.verifyButton }).click();
  await expect(page.getByRole("status").filter({ hasText: draw.verified })).toBeVisible();
});

test("finds a visitor's own row from their referral code, computed on the page", async ({ page }) => {
  await gotoHydrated(page, "/giveaway/draw/");
  await page.getByLabel(draw.findLabel).fill("Fixt2345");
  const own = await pseudonymOf(DRAW_FILE.draw, "Fixt2345");
  const rows = page.getByRole("table", { name: draw.entrantsHeading }).getByRole("row");
  await expect(rows.filter({ hasText: own })).toBeVisible();
  await expect(rows).toHaveText([`${draw.pseudonymColumn}${draw.entriesColumn}`, `${own}5`]);

  await page.getByLabel(draw.findLabel).fill("Nobody99");
  await expect(page.getByText(draw.findNoMatch)).toBeVisible();
});

test("reports a tampered draw: one entrant's entries changed after the commitment", async ({ page }) => {
  await page.route("**/page-data/giveaway/draw/page-data.json", async (route) => {
    const response = await route.fetch();
    const json = (await response.json()) as { result: { pageContext: { drawFile: string } } };
    const file = JSON.parse(json.result.pageContext.drawFile) as DrawFile;
    file.entrants[0].entries += 10;
    json.result.pageContext.drawFile = JSON.stringify(file);
    await route.fulfill({ response, json });
  });
  await page.goto("/giveaway/draw/");
  await waitForHydration(page);
  await page.getByRole("button", { name: draw.verifyButton }).click();
  const status = page.getByRole("status").filter({ hasText: draw.notVerified });
  await expect(status).toBeVisible();
  const lines = status.getByRole("listitem");
  const saying = (text: string) => lines.filter({ hasText: new RegExp(`^\\s*${escapeRegExp(text)}\\s*$`) });
  await expect(saying(draw.mismatches.listHash)).not.toHaveCount(0);
  await expect(saying(draw.mismatches.signature)).toHaveCount(0);
  await expect(page.getByText(draw.verified)).toHaveCount(0);
});

test("fetches the checking code only when Verify is pressed, on no other page", async ({ context }) => {
  const home = await context.newPage();
  const homeScripts = scriptsOf(home);
  await home.goto("/");
  await waitForHydration(home);
  await home.waitForLoadState("networkidle");
  for (const body of await Promise.all(homeScripts)) expect(body.includes(CHECK_CODE_MARK)).toBe(false);

  const page = await context.newPage();
  const scripts = scriptsOf(page);
  await page.goto("/giveaway/draw/");
  await waitForHydration(page);
  await page.waitForLoadState("networkidle");
  const before = scripts.length;
  expect((await Promise.all(scripts)).some((body) => body.includes(CHECK_CODE_MARK))).toBe(false);
  await page.getByRole("button", { name: draw.verifyButton }).click();
  await expect(page.getByRole("status").filter({ hasText: draw.verified })).toBeVisible();
  expect((await Promise.all(scripts.slice(before))).some((body) => body.includes(CHECK_CODE_MARK))).toBe(true);
});

test("says the draw is not committed yet on a site without a draw file", async ({ page }) => {
  // The legacy-form build's content is a copy of the fixture's in a folder of its own, with no giveaway/draw.json.
  await gotoHydrated(page, `${originOf("legacyPixel")}/giveaway/draw/`);
  await expect(page.getByText(draw.notCommitted)).toBeVisible();
  await expect(page.getByText(draw.howWinnersAreSelected)).toBeVisible();
  await expect(page.getByRole("button", { name: draw.verifyButton })).toHaveCount(0);
});
