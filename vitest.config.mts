/**
 * Vitest for the waitlist service's tests (`__tests__/service`): each test file runs inside workerd with the Worker
 * (`@cloudflare/vitest-pool-workers`), the bindings of the one wrangler.jsonc, its own D1 storage (emptied and
 * migrated by the setup file), and the loopback provider stand-ins a Node global setup starts. Jest runs everything else.
 */
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";

export default defineConfig(async () => ({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: "./wrangler.jsonc" },
      miniflare: {
        // `npm start`'s environment: development, every secret unset (a developer's .dev.vars must not change a test).
        bindings: {
          ENVIRONMENT: "development",
          KLAVIYO_PRIVATE_API_KEY: "",
          TURNSTILE_SECRET_KEY: "",
          IP_HASH_SALT: "",
          TEST_MIGRATIONS: await readD1Migrations("migrations"),
        },
        // The build's service-settings.json with the tests' default settings: public/ exists only after a build.
        assets: { directory: "./__tests__/service/fixtures/public", binding: "ASSETS" },
      },
    }),
  ],
  test: {
    // Every core: vitest's default keeps one for its main process, which only hands out files and waits.
    maxWorkers: "100%",
    // A worker's files share one workerd runtime and module graph instead of starting one per file, which cost more
    // than most files' tests. They stay independent: the setup file empties D1, R2 and the cached leaderboard before
    // each file, and each file has its own client addresses for the rate limit (support/service.ts).
    isolate: false,
    // The rank tests seed and query up to 100,000 rows: seconds on a busy machine, not the default 5 s.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    include: ["__tests__/service/**/*.test.ts"],
    // obscenity ships CommonJS behind an ES module that default-imports it; pre-bundled, workerd gets plain ESM
    // (wrangler's own bundle does the same for the deployed Worker).
    deps: { optimizer: { ssr: { enabled: true, include: ["obscenity"] } } },
    globalSetup: ["./__tests__/service/support/global-setup.ts"],
    setupFiles: ["./__tests__/service/support/apply-migrations.ts"],
  },
}));
