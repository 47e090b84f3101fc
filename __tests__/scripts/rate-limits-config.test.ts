/**
 * The rate limits as wrangler.jsonc declares them and the Worker knows them (worker/src/limits.ts: RATE_LIMITS):
 * every binding the Worker counts against is declared with the limit its tests reach and the window its 429 names as
 * `Retry-After`.
 */
import path from "node:path";
import { RATE_LIMITS } from "../../worker/src/limits";
import { PROJECT_DIR } from "../../scripts/lib/wrangler";

interface RateLimitBinding {
  name: string;
  namespace_id: string;
  simple: { limit: number; period: number };
}

it("declares each rate limit the Worker counts against, as the Worker and its tests know it", async () => {
  const { experimental_readRawConfig: readRawConfig } = await import("wrangler");
  const { rawConfig } = readRawConfig({ config: path.join(PROJECT_DIR, "wrangler.jsonc") });
  const declared = (rawConfig.ratelimits ?? []) as RateLimitBinding[];
  expect(Object.fromEntries(declared.map(({ name, simple }) => [name, { limit: simple.limit, periodS: simple.period }]))).toEqual(
    RATE_LIMITS,
  );
  // Each its own counter: a namespace shared by two bindings would count one's requests against the other.
  expect(new Set(declared.map(({ namespace_id }) => namespace_id)).size).toBe(declared.length);
});
