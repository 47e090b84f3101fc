/**
 * ESLint flat config, with type information for the product's code. Its own rules hold the architecture: no
 * import cycles; nothing the browser loads imports build-time code (zod and the YAML parser would join the
 * bundle); a page module exports only what Gatsby reads, so Fast Refresh keeps working. Prettier owns formatting.
 */
import js from "@eslint/js";
import prettier from "eslint-config-prettier";
import importPlugin from "eslint-plugin-import";
import jsxA11y from "eslint-plugin-jsx-a11y";
import react from "eslint-plugin-react";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

/** What Gatsby reads from a page module (besides the default export). */
const PAGE_EXPORTS = "^(Head|query|config)$";
const PAGE_EXPORT_MESSAGE =
  "A page module exports only the page (default), Head, query and config; anything else breaks Fast Refresh. Move it to a module of its own.";

/**
 * The product's code, linted with type information: the site, the Worker and what they share, and Gatsby's
 * own modules (in the site's TypeScript program already). Tests, scripts and config files are linted without it,
 * so one run fits in Node's default heap.
 */
const TYPED_CODE = ["src/**", "worker/src/**", "shared/**", "gatsby-*.ts", "gatsby-*.tsx"];

/** Modules that end up in the browser bundle (gatsby-ssr shares their tree). */
const BROWSER_CODE = [
  "src/pages/**",
  "src/templates/**",
  "src/components/**",
  "src/app/**",
  "src/lib/**",
  "src/api/**",
  "src/ui/**",
  "src/signup/**",
  "src/consent/**",
  "src/toasts/**",
  "src/styles/**",
  "src/countdown/**",
  "src/referrals/**",
  "src/icons.ts",
  "shared/giveaway/**",
  "gatsby-browser.tsx",
  "gatsby-ssr.tsx",
];

export default tseslint.config(
  {
    ignores: [
      "public/**",
      ".cache/**",
      "node_modules/**",
      "artifacts/**",
      "static/**",
      "src/gatsby-types.d.ts",
      "worker/worker-configuration.d.ts",
      ".wrangler/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.browser, ...globals.node },
    },
    settings: {
      react: { version: "18.3" },
      "import/resolver": { node: { extensions: [".ts", ".tsx", ".js", ".mjs"] } },
    },
    plugins: { react, "react-hooks": reactHooks, "jsx-a11y": jsxA11y, import: importPlugin },
    rules: {
      ...react.configs.recommended.rules,
      ...react.configs["jsx-runtime"].rules,
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
      // Only the project's own modules can form a cycle; walking into packages costs memory and finds none.
      "import/no-cycle": ["error", { ignoreExternal: true }],
      "import/no-duplicates": "error",
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_" }],
      // Types come from TypeScript; prop-types would restate them at run time.
      "react/prop-types": "off",
    },
  },
  {
    files: BROWSER_CODE,
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/content/*", "!**/content/*.yaml"],
              message: "src/content is build-time code (zod, the YAML parser): the browser gets content through GraphQL.",
            },
            { group: ["**/build/*"], message: "src/build is Node-only code that runs after the build." },
            {
              group: ["**/shared/service-settings"],
              message: "The service's settings schema (zod) is for the build and the Worker; the page never reads the file.",
            },
          ],
        },
      ],
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/shared/api/*"],
              allowTypeImports: true,
              message: "shared/api holds the API's zod schemas: a page imports only their types, so zod stays out of its JavaScript.",
            },
          ],
        },
      ],
    },
  },
  {
    // The Worker (own tsconfig: the Workers runtime's types) imports only its own modules, the one folder it shares with
    // the page (shared/: the wire contract, the signup rules, paths) and packages; shared/ imports only itself.
    files: ["worker/**", "shared/**"],
    languageOptions: { globals: { ...globals.serviceworker } },
    rules: {
      "import/no-restricted-paths": [
        "error",
        {
          zones: [
            {
              target: "./worker",
              from: ".",
              except: ["./worker", "./shared", "./node_modules"],
              message: "The Worker imports only worker/, shared/ and packages: move what the page and the Worker both need into shared/.",
            },
            {
              target: "./shared",
              from: ".",
              except: ["./shared", "./node_modules"],
              message: "shared/ is what the page and the Worker both import: it depends on nothing of either.",
            },
          ],
        },
      ],
    },
  },
  {
    // The page's layers point one way: src/app (providers, wrappers, hydration) on top, imported only by gatsby-browser
    // and gatsby-ssr; screens (pages, templates, components, the console) in the middle; the floors below them.
    files: ["src/**"],
    rules: {
      "import/no-restricted-paths": [
        "error",
        {
          zones: [
            {
              target: "./src/!(app)/**/*",
              from: "./src/app",
              message: "src/app is the top of the page: only gatsby-browser.tsx and gatsby-ssr.tsx import it.",
            },
            {
              target: ["./src/ui", "./src/lib", "./src/api", "./src/toasts", "./src/styles"],
              from: ["./src/components", "./src/console", "./src/pages", "./src/templates"],
              message: "Page primitives and utilities sit below the screens that use them: move what both need down.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["src/pages/**"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: `ExportNamedDeclaration > VariableDeclaration > VariableDeclarator[id.name!=/${PAGE_EXPORTS}/]`,
          message: PAGE_EXPORT_MESSAGE,
        },
        { selector: `ExportNamedDeclaration > FunctionDeclaration[id.name!=/${PAGE_EXPORTS}/]`, message: PAGE_EXPORT_MESSAGE },
        { selector: "ExportNamedDeclaration > ClassDeclaration", message: PAGE_EXPORT_MESSAGE },
        { selector: `ExportSpecifier[exported.name!=/${PAGE_EXPORTS.slice(0, -2)}|default)$/]`, message: PAGE_EXPORT_MESSAGE },
        { selector: "ExportAllDeclaration", message: PAGE_EXPORT_MESSAGE },
        { selector: "TSModuleDeclaration[kind='global']", message: "Declare globals in the module that owns them, not in a page." },
      ],
    },
  },
  {
    // Tests and tooling run in Node under jest or tsx; their loose `any`s come from test doubles and JSON.
    files: ["__tests__/**", "scripts/**", "*.js", "*.mjs"],
    languageOptions: { globals: { ...globals.jest, ...globals.node } },
    rules: {
      "@typescript-eslint/no-require-imports": "off",
      "@typescript-eslint/unbound-method": "off",
    },
  },
  {
    ignores: TYPED_CODE,
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // The browser suite runs on Playwright Test: `test` and `expect` come from support/fixtures.ts, never jest's globals.
    files: ["__tests__/browser/**", "playwright.config.ts"],
    rules: {
      "no-restricted-globals": [
        "error",
        ...["describe", "it", "beforeAll", "afterAll", "beforeEach", "afterEach", "jest"].map((name) => ({
          name,
          message: "The browser suite runs on Playwright Test: import test (test.describe, test.beforeEach, ...) from ./support/fixtures.",
        })),
      ],
      "react-hooks/rules-of-hooks": "off", // a Playwright fixture hands its value on through a callback named `use`, not React's
      "no-empty-pattern": "off", // Playwright reads a fixture's dependencies from its first parameter's pattern: none is `{}`
    },
  },
  {
    // Plain JavaScript that is not in the TypeScript project, so rules that need type information cannot run on it:
    // the config and setup files (their plugins ship no types), and the web editor's scripts, served to /admin/ as
    // they are, which import files the build writes beside them (key-order.js, yaml/).
    files: ["*.js", "*.mjs", "__tests__/support/*.js", "src/build/admin-page/*.js"],
    ...tseslint.configs.disableTypeChecked,
  },
  prettier,
);
