/**
 * Any error a route does not answer itself (here: D1 failing under the status and leaderboard routes) answers a
 * JSON:API 500 with no-store, never the runtime's own error page, and its log line names the error, not its text.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { errorsOf, startWaitlistService, type WaitlistService } from "./support/service";

let service: WaitlistService;

beforeAll(async () => {
  service = startWaitlistService();
  // The table the routes read is gone: every statement on it throws inside the handler.
  await service.query("ALTER TABLE signups RENAME TO signups_away");
});

afterAll(async () => {
  await service.query("ALTER TABLE signups_away RENAME TO signups");
});

it.each([
  ["GET /api/status", "/api/status", { authorization: `Bearer ${"A".repeat(32)}` }],
  ["GET /api/leaderboard", "/api/leaderboard", {}],
])("answers a JSON:API 500 with no-store when %s fails unexpectedly", async (_name, path, headers) => {
  const response = await service.fetch(path, { headers });

  expect(response.status).toBe(500);
  expect(response.headers.get("cache-control")).toBe("no-store");
  expect(await errorsOf(response)).toEqual([{ status: "500", code: "internal_error", detail: "The request could not be handled." }]);
  const line = service
    .output()
    .split("\n")
    .map((text) => JSON.parse(text) as Record<string, unknown>)
    .find((entry) => entry.event === "request_failed" && entry.path === path);
  expect(line).toMatchObject({ error: "Error", at: expect.any(String) as unknown });
  // The error's message (D1's, naming the missing table) stays out of the log.
  expect(JSON.stringify(line)).not.toContain("no such table");
});
