/**
 * Jest, set up as Gatsby's unit-testing guide describes (babel-jest with
 * babel-preset-gatsby, a `gatsby` mock, the loader shim), in two projects:
 * - unit: components, pages and modules in jsdom (`__tests__/unit`, `__tests__/content`)
 * - scripts: the operator's CLI and its local D1 helpers in Node (`__tests__/scripts`)
 * The real-browser tests run with Playwright Test (playwright.config.ts, `__tests__/browser`); the waitlist
 * service's own tests inside workerd with vitest (vitest.config.mts, `__tests__/service`).
 */
const shared = {
  transform: { "^.+\\.[jt]sx?$": "<rootDir>/__tests__/support/jest-preprocess.js" },
  // chrome-launcher, its logger, nanoid (the service's referral codes), p-retry (the local D1 reads), @noble/curves
  // (the giveaway draw's signature check) and jose (the Access stand-in's tokens) ship ES modules only; babel turns them
  // into CommonJS for jest.
  transformIgnorePatterns: [
    "node_modules/(?!(gatsby|gatsby-script|gatsby-link|chrome-launcher|lighthouse-logger|nanoid|p-retry|is-network-error|@noble|jose)/)",
  ],
  testPathIgnorePatterns: ["node_modules", "\\.cache", "<rootDir>/public"],
  modulePathIgnorePatterns: ["<rootDir>/public", "<rootDir>/\\.cache"],
};

module.exports = {
  // Every core: jest's default keeps one for its main process, which only hands out files and waits, so on CI's two
  // cores the suite ran one file at a time.
  maxWorkers: "100%",
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
      displayName: "scripts",
      testEnvironment: "node",
      // The operator's CLI and its D1 helpers, in Node beside a local wrangler (the Worker's own tests: vitest.config.mts).
      testMatch: ["<rootDir>/__tests__/scripts/**/*.test.[jt]s"],
      setupFilesAfterEnv: ["<rootDir>/__tests__/scripts/setup-scripts-tests.ts"],
    },
  ],
};
