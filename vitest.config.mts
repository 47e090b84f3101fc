/**
 * Vitest for the waitlist service's tests (`__tests__/service`): each test file runs inside workerd with the Worker
 * (`@cloudflare/vitest-pool-workers`), the bindings of the one wrangler.jsonc, its own D1 storage (migrated by the
 * setup file), and the loopback provider stand-ins a Node global setup starts. Jest runs everything else.
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
    include: [
      "__tests__/service/signups.test.ts",
      "__tests__/service/signup-form.test.ts",
      "__tests__/service/request-body.test.ts",
      "__tests__/service/referral-codes.test.ts",
      "__tests__/service/referrals-off.test.ts",
      "__tests__/service/leaderboard.test.ts",
      "__tests__/service/leaderboard-api.test.ts",
      "__tests__/service/leaderboard-visibility.test.ts",
      "__tests__/service/local-run.test.ts",
      "__tests__/service/referral-standing.test.ts",
      "__tests__/service/turnstile.test.ts",
      "__tests__/service/turnstile-refusal.test.ts",
      "__tests__/service/configuration.test.ts",
      "__tests__/service/rank.test.ts",
      "__tests__/service/referrals-migration.test.ts",
      "__tests__/service/referrals.test.ts",
      "__tests__/service/referral-confirmation.test.ts",
      "__tests__/service/delivery.test.ts",
    ],
    // obscenity ships CommonJS behind an ES module that default-imports it; pre-bundled, workerd gets plain ESM
    // (wrangler's own bundle does the same for the deployed Worker).
    deps: { optimizer: { ssr: { enabled: true, include: ["obscenity"] } } },
    globalSetup: ["./__tests__/service/support/global-setup.ts"],
    setupFiles: ["./__tests__/service/support/apply-migrations.ts"],
  },
}));
