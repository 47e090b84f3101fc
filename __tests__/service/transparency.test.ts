/**
 * The public record behind /transparency/ (docs/operators.md: Transparency), as the cron writes it and anyone reads
 * it on the site's host: counts per week in the site's time zone, the audit log's head as a checkpoint signed by the
 * Worker's key and kept by its size, and every draw ever announced, even one replaced before it was committed.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { AUDIT_CHAIN_GENESIS, type ChainedAuditRow, openCheckpoint } from "../../shared/audit-chain";
import { personActionEndpoint } from "../../shared/console";
import { personInviteEndpoint } from "../../shared/launch";
import { parseVerifierKey, verifierKeyOf } from "../../shared/signed-note";
import { auditLogOrigin, TRANSPARENCY_PATHS, type TransparencyReport } from "../../shared/transparency";
import { auditSigner } from "../../worker/src/console/audit-log";
import { TRANSPARENCY_REFRESH_MS } from "../../worker/src/transparency/report";
import { launchService, postJson, signUpConfirmed } from "./support/launch";
import { AUDIT_VERIFIER, TEST_SETTINGS, type WaitlistService } from "./support/service";

const CRON = "*/5 * * * *";
/** The site at UTC−08:00, so a Saturday evening there is already Sunday in UTC. */
const SETTINGS = { ...TEST_SETTINGS, utcOffsetMinutes: -480 };
/** The console side (the tests' default host is the console's too), where operators act. */
const service = launchService({ settings: SETTINGS });
/** The site's host, where the record is read, on the same D1 and R2. */
const site = launchService({ settings: SETTINGS, vars: { CONSOLE_HOST: "localhost" } });

/** Run the clock at `at` (Date only: timers stay real). */
function clockAt(at: string): number {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(Date.parse(at));
  return Date.parse(at);
}

afterEach(() => {
  vi.useRealTimers();
});

async function report(from: WaitlistService = site): Promise<TransparencyReport> {
  const response = await from.fetch(TRANSPARENCY_PATHS.report);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
  return response.json<TransparencyReport>();
}

describe("the transparency record", () => {
  it("is not there before the cron first writes it: the site's 404 page", async () => {
    const response = await site.fetch(TRANSPARENCY_PATHS.report);
    expect(response.status).toBe(404);
  });

  it("counts signups, confirmations, disqualifications and invitations per week of the site's time zone", async () => {
    // Saturday 22:30 in the site's zone (Sunday 06:30 UTC): the week of Monday 30 November.
    clockAt("2026-12-06T06:30:00Z");
    const [ana, ben] = await signUpConfirmed(service, 2);
    expect((await postJson(service, personActionEndpoint(ben.id, "disqualify"), { reason: "Two accounts" })).status).toBe(200);
    expect((await postJson(service, personInviteEndpoint(ana.id), { reason: "Press preview" })).status).toBe(200);
    // Monday 01:00 in the site's zone: the next week.
    clockAt("2026-12-07T09:00:00Z");
    await signUpConfirmed(service, 1);
    const now = clockAt("2026-12-07T09:05:00Z");
    await service.scheduled(CRON, now);

    const { weeks, utcOffsetMinutes } = await report();
    expect(utcOffsetMinutes).toBe(-480);
    expect(weeks).toEqual([
      { week: "2026-12-07", signups: 1, confirmed: 1, disqualified: 0, erased: 0, invited: 0 },
      { week: "2026-11-30", signups: 2, confirmed: 2, disqualified: 1, erased: 0, invited: 1 },
    ]);
  });

  it("publishes the audit log's head as a checkpoint signed by the Worker's key, kept by its size", async () => {
    const rows = await service.query<ChainedAuditRow>("SELECT * FROM audit_log ORDER BY id");
    const head = { size: rows.length, hash: rows.at(-1)?.hash ?? AUDIT_CHAIN_GENESIS };
    const published = await report();
    const origin = auditLogOrigin(SETTINGS.siteUrl);
    expect(published.auditLog).toMatchObject({ origin, size: head.size, verifierKey: verifierKeyOf(auditSigner({}, origin)) });
    expect(openCheckpoint(published.auditLog.checkpoint, parseVerifierKey(published.auditLog.verifierKey))).toEqual(head);
    // The same key under another name (another site's log) does not open it.
    expect(openCheckpoint(published.auditLog.checkpoint, AUDIT_VERIFIER)).toBeNull();

    for (const path of [TRANSPARENCY_PATHS.checkpoint, `${TRANSPARENCY_PATHS.checkpoints}${head.size}.txt`]) {
      const response = await site.fetch(path);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(await response.text()).toBe(published.auditLog.checkpoint);
    }
  });

  it("writes a new checkpoint once the log moves, and keeps the earlier one at its size", async () => {
    const before = await report();
    clockAt("2026-12-07T10:00:00Z");
    const [cy] = await signUpConfirmed(service, 1);
    expect((await postJson(service, personActionEndpoint(cy.id, "disqualify"), { reason: "Bot pattern" })).status).toBe(200);
    await service.scheduled(CRON, Date.now());
    const after = await report();
    expect(after.auditLog.size).toBe(before.auditLog.size + 1);
    const earlier = await site.fetch(`${TRANSPARENCY_PATHS.checkpoints}${before.auditLog.size}.txt`);
    expect(await earlier.text()).toBe(before.auditLog.checkpoint);
  });

  it("lists a draw announced and then replaced before its commitment, with the draw that replaced it", async () => {
    const now = clockAt("2026-12-07T11:00:00Z");
    await service.scheduled(CRON, now);
    const replaced = launchService({
      settings: { ...SETTINGS, draw: { ...SETTINGS.draw, id: "launch-again" } },
      vars: { CONSOLE_HOST: "localhost" },
    });
    await replaced.scheduled(CRON, now + TRANSPARENCY_REFRESH_MS);
    const { draws } = await report(replaced);
    expect(draws.map(({ id, state, replacedBy }) => ({ id, state, replacedBy }))).toEqual(
      expect.arrayContaining([
        { id: "launch", state: "announced", replacedBy: "launch-again" },
        { id: "launch-again", state: "announced", replacedBy: null },
      ]),
    );
  });

  it("is served on the site's host only: the console's host has none of it", async () => {
    expect((await site.fetch(TRANSPARENCY_PATHS.report)).status).toBe(200);
    const response = await site.fetch(`http://localhost:8787${TRANSPARENCY_PATHS.report}`);
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain("auditLog");
  });
});
