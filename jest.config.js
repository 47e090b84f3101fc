/**
 * Jest, set up as Gatsby's unit-testing guide describes (babel-jest with
 * babel-preset-gatsby, a `gatsby` mock, the loader shim), in two projects:
 * - unit: components, pages and modules in jsdom (`__tests__/unit`, `__tests__/content`)
 * - browser: headless Chromium against the built site (`__tests__/browser`)
 * - service: the waitlist service in workerd (`wrangler dev`) with loopback stand-ins (`__tests__/service`)
 */
const shared = {
  transform: { "^.+\\.[jt]sx?$": "<rootDir>/__tests__/support/jest-preprocess.js" },
  // chrome-launcher, its logger, nanoid (the service's referral codes) and p-retry (the local D1 reads) ship ES modules
  // only; babel turns them into CommonJS for jest.
  transformIgnorePatterns: [
    "node_modules/(?!(gatsby|gatsby-script|gatsby-link|chrome-launcher|lighthouse-logger|nanoid|p-retry|is-network-error)/)",
  ],
  testPathIgnorePatterns: ["node_modules", "\\.cache", "<rootDir>/public"],
  modulePathIgnorePatterns: ["<rootDir>/public", "<rootDir>/\\.cache"],
};

module.exports = {
  projects: [
    {
      ...shared,
      displayName: "unit",
      testEnvironment: "jsdom",
      // Resolve packages (yaml, zod) to their Node builds: tests load content files as the build does.
      testEnvironmentOptions: { url: "http://localhost/", customExportConditions: ["node", "require", "default"] },
      testMatch: ["<rootDir>/__tests__/unit/**/*.test.[jt]s?(x)", "<rootDir>/__tests__/content/**/*.test.[jt]s?(x)"],
      moduleNameMapper: {
        "^gatsby$": "<rootDir>/__tests__/support/gatsby-mock.tsx",
        ".+\\.(css|styl|less|sass|scss)$": "identity-obj-proxy",
      },
      globals: { __PATH_PREFIX__: "" },
      setupFiles: ["<rootDir>/__tests__/support/loadershim.js"],
      setupFilesAfterEnv: ["<rootDir>/__tests__/support/setup-unit.ts"],
    },
    {
      ...shared,
      displayName: "browser",
      testEnvironment: "node",
      testMatch: ["<rootDir>/__tests__/browser/**/*.test.[jt]s"],
      // Once per run: check Chromium, start the provider stand-in, build the fixture site, serve it.
      globalSetup: "<rootDir>/__tests__/browser/support/global-setup.ts",
      globalTeardown: "<rootDir>/__tests__/browser/support/global-teardown.ts",
      // Per-test timeout (testTimeout is not a per-project option in jest 29).
      setupFilesAfterEnv: ["<rootDir>/__tests__/browser/support/setup-browser-tests.ts"],
    },
    {
      ...shared,
      displayName: "service",
      testEnvironment: "node",
      testMatch: ["<rootDir>/__tests__/service/**/*.test.[jt]s"],
      // Files moved to the Workers pool (vitest.config.mts).
      testPathIgnorePatterns: [
        ...shared.testPathIgnorePatterns,
        "/__tests__/service/signups\.test\.ts$",
        "/__tests__/service/signup-form\.test\.ts$",
        "/__tests__/service/request-body\.test\.ts$",
        "/__tests__/service/referral-codes\.test\.ts$",
        "/__tests__/service/referrals-off\.test\.ts$",
        "/__tests__/service/leaderboard\.test\.ts$",
        "/__tests__/service/leaderboard-api\.test\.ts$",
        "/__tests__/service/leaderboard-visibility\.test\.ts$",
        "/__tests__/service/local-run\.test\.ts$",
        "/__tests__/service/referral-standing\.test\.ts$",
        "/__tests__/service/turnstile\.test\.ts$",
        "/__tests__/service/turnstile-refusal\.test\.ts$",
        "/__tests__/service/configuration\.test\.ts$",
        "/__tests__/service/rank\.test\.ts$",
        "/__tests__/service/referrals-migration\.test\.ts$",
        "/__tests__/service/referrals\.test\.ts$",
        "/__tests__/service/referral-confirmation\.test\.ts$",
        "/__tests__/service/delivery\.test\.ts$",
      ],
      // Each test file starts its own `wrangler dev` (own port, own local D1) and stand-ins.
      setupFilesAfterEnv: ["<rootDir>/__tests__/service/support/setup-service-tests.ts"],
    },
  ],
};
