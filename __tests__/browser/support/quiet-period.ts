/**
 * "Nothing more was sent": after a signup has settled (toast shown), wait a while and
 * count the stand-in's requests again, so a stray retry or a native form POST that
 * arrives late is caught rather than missed. On a page whose clock the test holds
 * (page-clock.ts), the while is the page's time, moved on by the test.
 */
import { expect } from "@playwright/test";
import type { PageClock } from "./page-clock";
import { providerRequests } from "./provider-control";

/** How long to keep listening after the toast (ms): longer than the last backoff before the final attempt (product rule 9). */
export const QUIET_PERIOD_MS = 5_000;

/**
 * Wait QUIET_PERIOD_MS, then expect the stand-in still to hold exactly `count`
 * requests carrying `match`.
 * @param count how many had arrived when the form settled
 */
export async function expectNoLaterRequests(match: string, count: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, QUIET_PERIOD_MS));
  expect(await providerRequests(match)).toHaveLength(count);
}

/**
 * Move the page's paused clock on by QUIET_PERIOD_MS, then expect the page to have sent nothing more (its
 * own record, so a request still on its way counts too) and the stand-in still to hold exactly `count` requests
 * carrying `match`.
 * @param count how many had arrived when the form settled
 */
export async function expectNoLaterRequestsOnClock(clock: PageClock, match: string, count: number): Promise<void> {
  const sent = (await clock.requests()).length;
  await clock.runFor(QUIET_PERIOD_MS);
  expect(await clock.requests(), "the page's requests after the toast").toHaveLength(sent);
  expect(await providerRequests(match)).toHaveLength(count);
}
