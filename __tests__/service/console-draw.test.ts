/**
 * The console's button that closes a giveaway draw (POST /api/console/draw/commit), against the Worker in workerd: the
 * eligible entrants frozen by pseudonym as the command line freezes them, the answer a draw file that verifies, its
 * audit entry, and every way a commitment is refused without writing anything.
 */
import { beforeAll, expect, it } from "vitest";
import { CONSOLE_ERROR_CODE } from "../../shared/console";
import { COMMIT_REFUSAL, DRAW_COMMIT_ENDPOINT } from "../../shared/giveaway/commit";
import { listHashOf, pseudonymOf, type DrawFile } from "../../shared/giveaway/draw-file";
import { verifyDraw } from "../../shared/giveaway/verify";
import { entrantRow, type RowValue } from "../fixtures/giveaway/entrant-row";
import defaultSettings from "./fixtures/public/service-settings.json";
import { errorsOf, LOCAL_ORIGIN, startWaitlistService, type WaitlistService } from "./support/service";

const OPERATOR = "draw-operator@example.com";
const CUTOFF = "2026-01-01T00:00:00.000Z";
const { chain } = defaultSettings.draw;
const { entriesPerReferral } = defaultSettings.referrals;

let service: WaitlistService;

/** Store one person of the draw (entrant-row.ts). */
async function seed(seq: number, name: string, code: string, fields: Record<string, RowValue>): Promise<void> {
  const values = entrantRow(seq, name, code, fields);
  const columns = Object.keys(values);
  await service.query(
    `INSERT INTO signups (${columns.join(", ")}) VALUES (${columns.map((_, index) => `?${index + 1}`).join(", ")})`,
    ...Object.values(values),
  );
}

beforeAll(async () => {
  service = startWaitlistService({ origin: LOCAL_ORIGIN, vars: { CONSOLE_LOCAL_OPERATOR: OPERATOR } });
  await seed(1, "ana", "Ana23456", { confirmed_at: "2025-12-01T00:00:00.000Z", referrals: 5 });
  await seed(2, "ben", "Ben23456", { confirmed_at: "2025-12-02T00:00:00.000Z" });
  await seed(3, "cat", "Cat23456", {}); // never confirmed
  await seed(4, "dan", "Dan23456", { confirmed_at: "2025-12-03T00:00:00.000Z", disqualified_at: "2025-12-20T00:00:00.000Z" });
  await seed(5, "fay", "Fay23456", { confirmed_at: "2026-02-01T00:00:00.000Z" }); // confirmed after the cut-off
  // Ana's fifth referral was credited after the cut-off: 4 count.
  await seed(6, "gus", "Gus23456", {
    confirmed_at: "2025-12-15T00:00:00.000Z",
    referred_by: "id-ana",
    referral_counted_at: "2026-03-01T00:00:00.000Z",
  });
});

function commit(body: unknown, target = service): Promise<Response> {
  return target.fetch(DRAW_COMMIT_ENDPOINT, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

async function auditCount(): Promise<number> {
  const [{ n }] = await service.query<{ n: number }>("SELECT count(*) AS n FROM audit_log");
  return n;
}

it("refuses a malformed request and writes nothing", async () => {
  for (const [body, code] of [
    ["{", "invalid_json"],
    [{ draw: "Launch!", winners: 1, cutoff: CUTOFF }, COMMIT_REFUSAL.drawIdInvalid],
    [{ draw: "launch", winners: 0, cutoff: CUTOFF }, COMMIT_REFUSAL.winnersInvalid],
    [{ draw: "launch", winners: 1, cutoff: "next friday" }, COMMIT_REFUSAL.cutoffInvalid],
    [{ draw: "launch", winners: 1, cutoff: CUTOFF, delayMinutes: 0 }, COMMIT_REFUSAL.delayInvalid],
    [{ draw: "launch", winners: 1, cutoff: CUTOFF, extra: true }, "invalid_type"],
  ] as const) {
    const response = await commit(body);
    expect({ body, status: response.status, code: (await errorsOf(response))[0].code }).toEqual({ body, status: 400, code });
  }
  expect(await auditCount()).toBe(0);
});

it("refuses to commit while entries are still open", async () => {
  const response = await commit({ draw: "launch", winners: 1, cutoff: new Date(Date.now() + 86_400_000).toISOString() });
  expect(response.status).toBe(409);
  expect((await errorsOf(response))[0].code).toBe(COMMIT_REFUSAL.entriesOpen);
  expect(await auditCount()).toBe(0);
});

it("a request without an Access token cannot commit a draw", async () => {
  const stranger = startWaitlistService();
  const response = await commit({ draw: "launch", winners: 1, cutoff: CUTOFF }, stranger);
  expect(response.status).toBe(401);
  expect((await errorsOf(response))[0].code).toBe(CONSOLE_ERROR_CODE.accessTokenMissing);
  expect(await auditCount()).toBe(0);
});

it("commits the eligible entrants by pseudonym with a future round, answers the draw file and logs it", async () => {
  const before = Date.now();
  const response = await commit({ draw: "launch", winners: 2, cutoff: "2026-01-01T01:00:00+01:00" });
  expect(response.status).toBe(201);
  expect(response.headers.get("content-disposition")).toBe('attachment; filename="draw.json"');
  const text = await response.text();
  const file = JSON.parse(text) as DrawFile;

  // Unconfirmed (cat), disqualified (dan) and confirmed after the cut-off (fay) are not in the list.
  const expected = [
    { pseudonym: await pseudonymOf("launch", "Ana23456"), entries: 1 + 4 * entriesPerReferral },
    { pseudonym: await pseudonymOf("launch", "Ben23456"), entries: 1 },
    { pseudonym: await pseudonymOf("launch", "Gus23456"), entries: 1 },
  ].sort((a, b) => (a.pseudonym < b.pseudonym ? -1 : 1));
  expect(file).toMatchObject({ draw: "launch", winnerCount: 2, cutoff: CUTOFF, chain, entrants: expected, result: null });
  expect(file.listHash).toBe(await listHashOf(expected));
  expect(Date.parse(file.roundAt)).toBeGreaterThan(before);
  expect(await verifyDraw(file, chain)).toMatchObject({ verified: true });
  expect(text).not.toMatch(/example\.com|Testperson|23456/);

  const log = await service.query<{ operator: string; action: string; person_id: string | null; after: string }>(
    "SELECT operator, action, person_id, after FROM audit_log",
  );
  expect(log).toHaveLength(1);
  expect(log[0]).toMatchObject({ operator: OPERATOR, action: "draw_commit", person_id: null });
  expect(JSON.parse(log[0].after)).toMatchObject({ draw: "launch", listHash: file.listHash, round: file.round, entrants: 3 });
  expect(log[0].after).not.toMatch(/example\.com|Testperson|23456/);
});

it("a second commitment for the same draw is refused, and its first stays", async () => {
  const response = await commit({ draw: "launch", winners: 5, cutoff: CUTOFF });
  expect(response.status).toBe(409);
  expect((await errorsOf(response))[0].code).toBe(COMMIT_REFUSAL.alreadyCommitted);
  expect(await auditCount()).toBe(1);
});

it("two operators committing one draw at once make one commitment", async () => {
  const answers = await Promise.all([1, 2, 3].map(() => commit({ draw: "spring", winners: 1, cutoff: CUTOFF })));
  expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409, 409]);
  const [{ n }] = await service.query<{ n: number }>(
    "SELECT count(*) AS n FROM audit_log WHERE action = 'draw_commit' AND json_extract(after, '$.draw') = 'spring'",
  );
  expect(n).toBe(1);
});
