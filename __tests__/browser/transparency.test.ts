/**
 * What anyone sees on /transparency/, with the service's record routed by each test: the weekly counts, every draw
 * with its state and why, the audit log's checkpoint and key, all in the content's words; a clear note when the
 * record cannot be read; and, without JavaScript, the links to the record's files.
 */
import type { Page } from "@playwright/test";
import { TRANSPARENCY_PATHS, type TransparencyReport } from "../../shared/transparency";
import { axeViolations, formatViolations } from "./support/axe";
import { expect, test } from "./support/fixtures";
import { waitlistContent } from "./support/fixture-content";
import { layoutProblems } from "./support/layout";

const { transparency } = waitlistContent();

const CHECKPOINT = "www.example.com/audit-log\n42\nPDw8PDw8PDw8PDw8PDw8PDw8PDw8PDw8PDw8PDw8PDw=\n\n— www.example.com/audit-log AbCdEfGh\n";
const REPORT: TransparencyReport = {
  generatedAt: "2026-12-07T09:05:00.000Z",
  utcOffsetMinutes: -480,
  weeks: [
    { week: "2026-12-07", signups: 1234, confirmed: 1000, disqualified: 3, erased: 1, invited: 500 },
    { week: "2026-11-30", signups: 87, confirmed: 80, disqualified: 0, erased: 0, invited: 0 },
  ],
  draws: [
    {
      id: "launch-again",
      state: "committed",
      cutoff: "2026-12-01T00:00:00Z",
      winners: 2,
      round: 4812345,
      committedAt: "2026-12-01T00:04:00Z",
      listHash: "ab".repeat(32),
      entrants: 12345,
      failure: null,
      replacedBy: null,
    },
    {
      id: "launch",
      state: "announced",
      cutoff: "2026-11-01T00:00:00Z",
      winners: 2,
      round: null,
      committedAt: null,
      listHash: null,
      entrants: null,
      failure: null,
      replacedBy: "launch-again",
    },
  ],
  auditLog: {
    origin: "www.example.com/audit-log",
    verifierKey: "www.example.com/audit-log+648333cf+AWCf8MppG+YZ",
    size: 42,
    checkpoint: CHECKPOINT,
  },
};

test.use({ site: "waitlist" });

/** Answer the record's path with `status` and `body`. */
async function routeReport(page: Page, status: number, body: unknown): Promise<void> {
  await page.route(`**${TRANSPARENCY_PATHS.report}`, (route) =>
    route.fulfill({ status, contentType: "application/json", body: JSON.stringify(body) }),
  );
}

test("shows the weeks, every draw with its state and why, and the signed checkpoint with its key", async ({ page }) => {
  await routeReport(page, 200, REPORT);
  await page.goto("/transparency/");
  await expect(page.getByRole("heading", { level: 1, name: transparency.heading })).toBeVisible();

  const weeks = page.getByRole("table", { name: transparency.weeks.heading });
  await expect(weeks.getByRole("columnheader")).toHaveText(Object.values(transparency.weeks.columns));
  await expect(weeks.getByRole("row").nth(1)).toContainText("1,234");
  await expect(weeks.getByRole("row").nth(1)).toContainText("500");

  const draws = page.getByRole("table", { name: transparency.draws.heading });
  const replaced = draws.getByRole("row", { name: /^launch / });
  await expect(replaced).toContainText(transparency.draws.states.announced);
  await expect(replaced).toContainText(transparency.draws.replacedBy.replace("{draw}", "launch-again"));
  await expect(draws.getByRole("row", { name: /^launch-again / })).toContainText("12,345");

  await expect(page.getByText(transparency.auditLog.size.replace("{size}", "42"))).toBeVisible();
  await expect(page.getByLabel(transparency.auditLog.keyLabel)).toHaveText(REPORT.auditLog.verifierKey);
  await expect(page.getByLabel(transparency.auditLog.checkpointLabel)).toContainText("www.example.com/audit-log\n42\n");
  await expect(page.getByRole("link", { name: transparency.checkpointLink })).toHaveAttribute("href", TRANSPARENCY_PATHS.checkpoint);

  const violations = await axeViolations(page);
  expect(violations, formatViolations(violations)).toEqual([]);
});

test("on a 320 px phone the record's tables, key and checkpoint never make the page scroll sideways", async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 568 });
  await routeReport(page, 200, REPORT);
  await page.goto("/transparency/");
  await expect(page.getByRole("table", { name: transparency.draws.heading })).toBeVisible();
  expect(await layoutProblems(page)).toEqual([]);
});

test("says plainly when the record cannot be read, with no error text of the browser's", async ({ page }) => {
  await routeReport(page, 404, { errors: [{ status: "404" }] });
  await page.goto("/transparency/");
  await expect(page.getByRole("status")).toHaveText(transparency.unavailable, { timeout: 15_000 });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("carries its words in the HTML and links the record's files", async ({ page }) => {
    await page.goto("/transparency/");
    await expect(page.getByRole("heading", { level: 1, name: transparency.heading })).toBeVisible();
    // The note and links sit in <noscript>, which Playwright's own text, role and CSS queries pass over: read the
    // page as the browser renders it.
    const rendered = await page.evaluate(() => ({
      text: document.querySelector("main")?.innerText ?? "",
      links: Array.from(document.querySelectorAll("main a"), (link) => [link.textContent, link.getAttribute("href")]),
    }));
    expect(rendered.text).toContain(transparency.noScript);
    expect(rendered.text).not.toContain(transparency.loading);
    expect(rendered.links).toEqual(
      expect.arrayContaining([
        [transparency.reportLink, TRANSPARENCY_PATHS.report],
        [transparency.checkpointLink, TRANSPARENCY_PATHS.checkpoint],
      ]),
    );
  });
});
