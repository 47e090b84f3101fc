/**
 * /giveaway/draw/ and the status page's proof in a real browser, with the published draw routed to the golden format 2
 * files (__tests__/fixtures/giveaway/draw-2.json and entrants-2.txt, answering Range requests as the Worker's R2 does;
 * the fixture content publishes the golden draw's rules): the rules, the commitment and the winners on the page, a
 * ticket found by binary search, Verify streaming the list and saying "verified", its labelled progress bar and Stop
 * (the page usable again after it), a tampered list reported, the checking code fetched only on the click, and a
 * person's proof checked on their status page.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Page, Request } from "@playwright/test";
import { expect, gotoHydrated, test, waitForHydration } from "./support/fixtures";
import { FIXTURE, waitlistContent } from "./support/fixture-content";
import { escapeRegExp } from "./support/signup-page";
import type { Commitment, DrawPlace } from "../../shared/api/draw";
import { pseudonymOf } from "../../shared/giveaway/draw-file";
import { leafBytes, LINE_BYTES } from "../../shared/giveaway/list";
import { auditPath, leafHash } from "../../shared/giveaway/merkle";
import { goldenTicket } from "../fixtures/giveaway/format2";

const FIXTURES = path.join(__dirname, "..", "fixtures", "giveaway");
const COMMITMENT_TEXT = readFileSync(path.join(FIXTURES, "draw-2.json"), "utf8");
const COMMITMENT = JSON.parse(COMMITMENT_TEXT) as Commitment;
const LIST = readFileSync(path.join(FIXTURES, "entrants-2.txt"));
const { draw } = FIXTURE;
/** The quicknet signature check's hash-to-curve tag: in the checking code's chunk and nowhere else. */
const CHECK_CODE_MARK = "BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_";

/**
 * Serve the published draw as the Worker does: the commitment, and the list with Range requests.
 * @param held the list's full read is answered once this settles (a slow connection); a check stopped meanwhile has
 *   gone, so its answer finds nobody
 */
async function routePublished(page: Page, list: Buffer = LIST, held: Promise<void> = Promise.resolve()): Promise<Request[]> {
  const ranges: Request[] = [];
  await page.route(`**/giveaway/draw/${COMMITMENT.draw}/draw.json`, (route) =>
    route.fulfill({ status: 200, contentType: "application/json", body: COMMITMENT_TEXT }),
  );
  await page.route(`**${COMMITMENT.listUrl}`, (route) => {
    const range = /^bytes=(\d+)-(\d+)$/.exec(route.request().headers().range ?? "");
    if (!range) return held.then(() => route.fulfill({ status: 200, contentType: "text/plain", body: list }).catch(() => undefined));
    ranges.push(route.request());
    const [from, to] = [Number(range[1]), Math.min(Number(range[2]), list.length - 1)];
    return route.fulfill({
      status: 206,
      contentType: "text/plain",
      headers: { "content-range": `bytes ${from}-${to}/${list.length}` },
      body: list.subarray(from, to + 1),
    });
  });
  return ranges;
}

/** The bodies of every script the page fetches from now on. */
function scriptsOf(page: Page): Promise<string>[] {
  const bodies: Promise<string>[] = [];
  page.on("response", (response) => {
    if (response.request().resourceType() === "script") bodies.push(response.text());
  });
  return bodies;
}

test("shows the rules, the commitment and the winners, and Verify streams the list and says verified", async ({ page }) => {
  await routePublished(page);
  await gotoHydrated(page, "/giveaway/draw/");
  await expect(page.getByRole("heading", { name: draw.heading })).toBeVisible();
  await expect(
    page.getByText(new RegExp(`^Draw ${COMMITMENT.draw}: entries are counted until ${escapeRegExp(COMMITMENT.rules.cutoff)}`)),
  ).toBeVisible();
  await expect(page.getByText(COMMITMENT.listHash)).toBeVisible();
  await expect(page.getByText(COMMITMENT.merkleRoot)).toBeVisible();
  const winners = page.getByRole("region", { name: draw.winnersHeading }).getByRole("listitem");
  await expect(winners).toHaveText(COMMITMENT.result!.winners.map(({ pseudonym }) => pseudonym));

  await page.getByRole("button", { name: draw.verifyButton }).click();
  await expect(page.getByRole("status").filter({ hasText: draw.verified })).toBeVisible();
});

test("shows a labelled progress bar while Verify reads the list, and Stop ends the check and leaves the page usable", async ({ page }) => {
  let answer = () => {};
  await routePublished(page, LIST, new Promise<void>((resolve) => (answer = resolve)));
  await gotoHydrated(page, "/giveaway/draw/");
  const verify = page.getByRole("button", { name: draw.verifyButton });
  await verify.click();
  const progress = page.getByRole("progressbar", { name: draw.progressLabel });
  await expect(progress).toBeVisible();
  await expect(progress).toHaveAttribute("max", String(COMMITMENT.listBytes));
  await expect(page.getByRole("status").filter({ hasText: draw.verifying })).toBeVisible();
  await expect(verify).toBeDisabled();
  const stop = page.getByRole("button", { name: draw.stopButton });
  await expect(stop).toBeFocused();

  await stop.click();
  await expect(page.getByRole("status").filter({ hasText: draw.stopped })).toBeVisible();
  await expect(page.getByText(draw.verifying)).toHaveCount(0);
  await expect(progress).toHaveCount(0);
  await expect(stop).toHaveCount(0);
  await expect(verify).toBeEnabled();
  await expect(verify).toBeFocused();

  answer();
  await verify.press("Enter");
  await expect(page.getByRole("status").filter({ hasText: draw.verified })).toBeVisible();
  await expect(progress).toHaveCount(0);
});

test("finds a visitor's line from their ticket by a few Range requests, and a wrong ticket finds nothing", async ({ page }) => {
  const ranges = await routePublished(page);
  await gotoHydrated(page, "/giveaway/draw/");
  await page.getByLabel(draw.findLabel).fill(goldenTicket(12));
  await page.getByRole("button", { name: draw.findButton }).click();
  const own = await pseudonymOf(COMMITMENT.draw, goldenTicket(12));
  await expect(page.getByText(new RegExp(`^${own} is line \\d+ of the list, with 3 entries\\.$`))).toBeVisible();
  expect(ranges.length).toBeGreaterThan(0);
  expect(ranges.length).toBeLessThanOrEqual(Math.ceil(Math.log2(COMMITMENT.n)) + 1);

  await page.getByLabel(draw.findLabel).fill(goldenTicket(99));
  await page.getByRole("button", { name: draw.findButton }).click();
  await expect(page.getByText(draw.findNoMatch)).toBeVisible();
});

test("reports a tampered list: one line's entries changed after the commitment", async ({ page }) => {
  const tampered = Buffer.from(LIST);
  tampered[LINE_BYTES * 3 + 22] = tampered[LINE_BYTES * 3 + 22] === 0x31 ? 0x32 : 0x31;
  await routePublished(page, tampered);
  await gotoHydrated(page, "/giveaway/draw/");
  await page.getByRole("button", { name: draw.verifyButton }).click();
  const status = page.getByRole("status").filter({ hasText: draw.notVerified });
  await expect(status).toBeVisible();
  const lines = status.getByRole("listitem");
  const saying = (text: string) => lines.filter({ hasText: new RegExp(`^\\s*${escapeRegExp(text)}\\s*$`) });
  await expect(saying(draw.mismatches.listHash)).not.toHaveCount(0);
  await expect(saying(draw.mismatches.merkleRoot)).not.toHaveCount(0);
  await expect(saying(draw.mismatches.signature)).toHaveCount(0);
  await expect(page.getByText(draw.verified)).toHaveCount(0);
});

test("fetches the checking code only when Verify is pressed", async ({ page }) => {
  await routePublished(page);
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

test("says the draw is not committed yet while nothing is published", async ({ page }) => {
  await page.route(`**/giveaway/draw/${COMMITMENT.draw}/draw.json`, (route) => route.fulfill({ status: 404, body: "" }));
  await gotoHydrated(page, "/giveaway/draw/");
  await expect(page.getByText(draw.notCommitted)).toBeVisible();
  await expect(page.getByText(draw.howWinnersAreSelected)).toBeVisible();
  await expect(page.getByRole("button", { name: draw.verifyButton })).toHaveCount(0);
});

test.describe("a person's place, on their status page", () => {
  test.use({ site: "waitlist" });
  const TOKEN = "Vb3kq9ZxT1mN8pL2rS6wYa";
  const { status, site } = waitlistContent();

  test("shows their entries and their line's proof as checked against the published root", async ({ page }) => {
    const ticket = goldenTicket(12);
    const pseudonym = await pseudonymOf(COMMITMENT.draw, ticket);
    const lines = LIST.toString("utf8").trim().split("\n");
    const index = lines.findIndex((line) => line.startsWith(pseudonym));
    const place: DrawPlace = {
      draw: COMMITMENT.draw,
      ticket,
      pseudonym,
      index,
      entries: 3,
      path: auditPath(
        index,
        lines.map((line) => leafHash(leafBytes(line))),
      ).map((hash) => Buffer.from(hash).toString("hex")),
      n: COMMITMENT.n,
      merkleRoot: COMMITMENT.merkleRoot,
      listUrl: COMMITMENT.listUrl,
    };
    const standing = {
      referralCode: "K7QM2XPD",
      referralUrl: `${site.url}/?ref=K7QM2XPD`,
      position: 1,
      referrals: 2,
      entries: 3,
      statusUrl: `${site.url}/status/#t=${TOKEN}`,
    };
    await page.route("**/api/status", (route) =>
      route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify(standing) }),
    );
    await page.route("**/api/status/draw", (route) =>
      route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify(place) }),
    );
    await routePublished(page);
    await page.goto(`/status/#t=${TOKEN}`);
    await waitForHydration(page);
    await page.getByRole("button", { name: status.drawPlace.check }).click();
    await expect(page.getByText(status.drawPlace.inDraw.replace("{entries}", "3"))).toBeVisible();
    await expect(page.getByText(new RegExp(`^Checked on your device: line ${index + 1} of ${COMMITMENT.n}`))).toBeVisible();
    await expect(page.getByText(ticket, { exact: false })).toBeVisible();
  });
});
