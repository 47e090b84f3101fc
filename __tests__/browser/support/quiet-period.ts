/**
 * "Nothing more was sent": after a signup has settled (toast shown), wait a while and
 * count the stand-in's requests again, so a stray retry or a native form POST that
 * arrives late is caught rather than missed.
 */
import { expect } from "@playwright/test";
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
