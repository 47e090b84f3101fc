/**
 * The content pipeline: validated YAML → one `SiteContent` node per signup page (campaigns merged over
 * the site file) → declared GraphQL types → page queries picking their node by `derived.pagePath`.
 * Environment overrides: README "Build-time overrides".
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { FSWatcher } from "chokidar";
import type { Application, Request, Response } from "express";
import { RetryChunkLoadPlugin } from "webpack-retry-chunk-load-plugin";
import type { GatsbyNode, NodePluginArgs, Reporter } from "gatsby";
import { allErrors, loadAllContent } from "./src/content/campaigns";
import {
  contentFilePath,
  deriveFields,
  effectiveProvider,
  SITE_PAGE_PATH,
  turnstileScriptOverride,
  type DerivedFields,
  type EffectiveProvider,
} from "./src/content/derive";
import { SITE_CONTENT_TYPE, siteContentTypeDefs } from "./src/content/graphql-types";
import { formatContentErrors } from "./src/content/load";
import type { SiteContent } from "./src/content/schema";
import type { SignupPage } from "./shared/service-settings";
import { watchContentFiles } from "./src/content/watch";
import { deferScripts } from "./src/build/deferScripts";
import { skipsPersistentCache } from "./src/build/webpackCache";
import { CHUNK_LOAD_TIMEOUT_MS, SCRIPT_LOAD_RETRIES, WEBPACK_RETRY_DELAY } from "./src/build/scriptRetry";
import { headersFile } from "./src/build/securityHeaders";
import { serviceSettings, writeServiceSettings } from "./src/build/serviceSettings";
import { ConsoleChunksPlugin, writeConsoleFiles } from "./src/build/consoleFiles";
import { robotsWithSitemap } from "./src/build/sitemap";
import { ADMIN_PATH, adminIndexHtml, writeAdminFiles } from "./src/build/admin-page";
import { MANIFEST_ICONS } from "./src/icons";
import { cmsBackendOrigins, cmsOptionsFromEnv, LOCAL_BACKEND_URL } from "./src/content/cms-config";
import { CONSOLE_PATH, GIVEAWAY_DRAW_PATH, REFERRAL_PAGE_PATHS } from "./shared/routes";

/** The content the last successful sourceNodes read, with the effective provider URLs and the site page's derived fields (for onPostBuild). */
let builtContent: (SiteContent & { provider: EffectiveProvider; derived: DerivedFields }) | null = null;
/** The signup pages the last successful sourcing made, with the custom source each records (the service's allow-lists). */
let signupPages: SignupPage[] = [];
/** Watches the browser bundle for the console page's scripts (onCreateWebpackConfig), which onPostBuild lists. */
const consoleChunks = new ConsoleChunksPlugin();

export const createSchemaCustomization: GatsbyNode["createSchemaCustomization"] = ({ actions }) => {
  actions.createTypes(siteContentTypeDefs());
};

/** Ids of the campaign nodes the last successful sourcing created (develop deletes the ones whose file is gone). */
let campaignNodeIds = new Set<string>();

/**
 * Validate the site file and its campaign files, and (re)create one content node
 * per signup page: the site's own (`derived.pagePath` "/") and one per campaign ("/<slug>/").
 * @returns false when a file is invalid (the build has been stopped, or, in develop, the last good nodes are kept)
 */
function createContentNodes(args: NodePluginArgs, file: string, fail: (reporter: Reporter, message: string) => void): boolean {
  const { actions, createNodeId, createContentDigest, reporter } = args;
  const loaded = loadAllContent(file);
  const errors = allErrors(loaded);
  if (errors.length > 0 || !loaded.site.result.ok) {
    fail(reporter, formatContentErrors(errors));
    return false;
  }
  const content = loaded.site.result.content;
  let provider: EffectiveProvider;
  try {
    provider = effectiveProvider(content.provider);
    turnstileScriptOverride();
  } catch (error) {
    fail(reporter, (error as Error).message);
    return false;
  }
  const builtAtMs = Date.now();
  const derived = deriveFields(content, builtAtMs);
  if (derived.demoMode) {
    reporter.warn(
      `${path.relative(process.cwd(), file)}: provider.demoMode is on. Signups on this build are SIMULATED and sent nowhere. Set demoMode: false with a public API key and list id before a real launch.`,
    );
  }
  builtContent = { ...content, provider, derived };

  const pages = [
    { id: createNodeId(SITE_CONTENT_TYPE), content: { ...content, campaign: null }, pagePath: SITE_PAGE_PATH },
    ...loaded.campaigns.flatMap(({ pagePath, result }) =>
      result.ok ? [{ id: createNodeId(`${SITE_CONTENT_TYPE}:${pagePath}`), content: result.content, pagePath }] : [],
    ),
  ];
  signupPages = pages.map(({ pagePath, content: pageContent }) => ({
    path: pagePath,
    source: pageContent.campaign?.source ?? provider.source ?? "",
  }));
  for (const page of pages) {
    const pageDerived = deriveFields(page.content, builtAtMs, page.pagePath);
    const data = { ...page.content, provider, derived: pageDerived };
    // Gatsby types createNode as possibly async, but the action is dispatched at once and nothing waits for it.
    void actions.createNode({
      ...data,
      id: page.id,
      parent: null,
      children: [],
      internal: { type: SITE_CONTENT_TYPE, contentDigest: createContentDigest({ ...data, derived: { ...pageDerived, builtAtMs: 0 } }) },
    });
  }
  const campaignIds = new Set(pages.slice(1).map((page) => page.id));
  for (const id of campaignNodeIds) {
    const gone = campaignIds.has(id) ? undefined : args.getNode(id);
    if (gone) actions.deleteNode(gone);
  }
  campaignNodeIds = campaignIds;
  return true;
}

/** The develop-mode watcher on the content files (one per process). */
let contentWatcher: FSWatcher | null = null;

/** Gatsby's error id for content mistakes, so the build shows "ERROR #…_CONTENT" instead of "ERROR UNKNOWN". */
const CONTENT_ERROR_ID = "CONTENT";

export const sourceNodes: GatsbyNode["sourceNodes"] = (args) => {
  const file = contentFilePath();
  args.reporter.info(`Reading site content from ${path.relative(process.cwd(), file)}`);
  // The message is the same text `npm run check-content` prints; the error map only names its category.
  args.reporter.setErrorMap({
    [CONTENT_ERROR_ID]: { text: (context: { sourceMessage: string }) => context.sourceMessage, level: "ERROR", category: "USER" },
  });
  createContentNodes(args, file, (reporter, message) =>
    reporter.panicOnBuild({ id: CONTENT_ERROR_ID, context: { sourceMessage: message } }),
  );

  if (process.env.gatsby_executing_command === "develop" && !contentWatcher) {
    // Editors preview live: re-validate on save; a broken edit is reported and the last good content stays on screen.
    // Campaign files too: a new one becomes a page (createPages runs again), a deleted one goes away.
    contentWatcher = watchContentFiles(file, (changed) => {
      if (
        createContentNodes(args, file, (reporter, message) => reporter.error({ id: CONTENT_ERROR_ID, context: { sourceMessage: message } }))
      ) {
        args.reporter.success(`Reloaded ${path.relative(process.cwd(), changed)}`);
      }
    });
  }
};

/** The page component every signup page uses: the home page's, with the campaign's content node. */
const SIGNUP_PAGE_COMPONENT = path.resolve("src", "pages", "index.tsx");

/**
 * One page per campaign node, at its `derived.pagePath`. The home page component
 * picks its node with the page's own path (Gatsby passes `$path` to every page
 * query), so `/` keeps working as an ordinary page of src/pages.
 */
// eslint-disable-next-line @typescript-eslint/unbound-method -- Gatsby's graphql is a plain function despite its method-style type, and typegen only finds queries in calls to a bare `graphql`
export const createPages: GatsbyNode["createPages"] = async ({ graphql, actions, reporter }) => {
  const result = await graphql<{ allSiteContent: { nodes: { derived: { pagePath: string } }[] } }>(`
    query CampaignPages {
      allSiteContent(filter: { campaign: { source: { ne: null } } }) {
        nodes {
          derived {
            pagePath
          }
        }
      }
    }
  `);
  if (result.errors || !result.data) {
    reporter.panicOnBuild("Could not list the campaign pages.", result.errors as Error[] | undefined);
    return;
  }
  for (const node of result.data.allSiteContent.nodes) {
    actions.createPage({ path: node.derived.pagePath, component: SIGNUP_PAGE_COMPONENT, context: {} });
  }
  // The giveaway draw's page: its rules from the content; the published draw is read from the site when it opens.
  actions.createPage({ path: GIVEAWAY_DRAW_PATH, component: DRAW_PAGE_COMPONENT, context: {} });
};

/** The giveaway draw's page component. */
const DRAW_PAGE_COMPONENT = path.resolve("src", "templates", "giveaway-draw.tsx");

/**
 * The referral program's pages (/status/, /leaderboard/) exist only while it runs
 * (`referrals.enabled`): without the waitlist service behind them they would only ever
 * show a failure. Their files stay in src/pages, so the addresses stay reserved for campaigns.
 */
export const onCreatePage: GatsbyNode["onCreatePage"] = ({ page, actions, reporter }) => {
  if (!REFERRAL_PAGE_PATHS.includes(page.path) || builtContent?.referrals.enabled) return;
  actions.deletePage(page);
  // Gatsby then warns once that the page's query "will not be run": that is this, not a fault.
  reporter.info(`Left out ${page.path}: the referral program is off (referrals.enabled: false).`);
};

/**
 * After the build: the manifest (brand name only in the YAML), robots.txt, `_headers` (its CSP hashes the
 * inline scripts of the finished HTML, so it follows deferScripts), the service's settings and the console's files.
 */
export const onPostBuild: GatsbyNode["onPostBuild"] = async ({ store, reporter }) => {
  if (!builtContent) return;
  const publicDir = publicDirOf(store);
  const { site } = builtContent;
  const manifest = {
    name: site.brandName,
    short_name: site.brandName,
    description: site.metaDescription,
    start_url: "/",
    display: "standalone",
    background_color: site.themeColor,
    theme_color: site.themeColor,
    icons: MANIFEST_ICONS,
  };
  await writeFile(path.join(publicDir, "manifest.webmanifest"), `${JSON.stringify(manifest, null, 2)}\n`);
  const robotsFile = path.join(publicDir, "robots.txt");
  await writeFile(robotsFile, robotsWithSitemap(await readFile(robotsFile, "utf8").catch(() => "User-agent: *\nAllow: /\n"), site.url));

  // The web editor (/admin/); production builds have no local backend.
  const cms = cmsOptionsFromEnv();
  await writeAdminFiles(publicDir, cms);

  const htmlFiles = (await readdir(publicDir, { recursive: true, withFileTypes: true })).filter(
    (entry) => entry.isFile() && entry.name.endsWith(".html"),
  );
  // Scripts start after the first paint (deferScripts.ts); done before the CSP hashes the pages' inline scripts.
  const consoleFile = path.join(publicDir, CONSOLE_PATH, "index.html");
  let consolePage: string | undefined;
  const htmlPages = await Promise.all(
    htmlFiles.map(async (entry) => {
      const file = path.join(entry.parentPath, entry.name);
      const html = deferScripts(await readFile(file, "utf8"));
      await writeFile(file, html);
      if (file === consoleFile) consolePage = html;
      return html;
    }),
  );
  const { endpointUrl, noScriptFormUrl, transport } = builtContent.provider;
  const headers = headersFile({
    htmlPages,
    endpointUrl,
    noScriptFormUrl,
    pixel: Boolean(builtContent.adPixel?.id),
    turnstileScriptUrl: builtContent.derived.turnstileScriptUrl,
    admin: cmsBackendOrigins(cms.backend),
    consolePage,
    // The waitlist service's build is served by its Worker on Cloudflare (`npm run deploy`), which joins repeated headers.
    detach: transport === "waitlist-api",
  });
  await writeFile(path.join(publicDir, "_headers"), headers);
  reporter.info(`Wrote public/_headers (CSP over ${htmlPages.length} pages)`);

  // The waitlist service's settings (waitlist-api only), read by the Worker from the same build.
  const settingsFile = await writeServiceSettings(publicDir, serviceSettings(builtContent, signupPages));
  if (settingsFile) reporter.info(`Wrote public/${path.basename(settingsFile)} for the waitlist service`);
  // The files the console's host serves besides the console page (the Worker refuses every other path there).
  try {
    const listFile = await writeConsoleFiles(publicDir, transport === "waitlist-api", consolePage, consoleChunks);
    if (listFile) reporter.info(`Wrote public/${path.basename(listFile)} for the console's host`);
  } catch (error) {
    reporter.panicOnBuild((error as Error).message);
  }
};

/** What onCreateWebpackConfig reads of a stage's webpack config (getConfig() returns the whole of it). */
type WebpackConfig = { output?: Record<string, unknown>; plugins?: unknown[] };

/**
 * The stage's webpack config with our changes: the persistent cache only where a later build in the same folder uses it
 * (src/build/webpackCache.ts), and in the browser's bundle a chunk that fails to load, or gets no answer in time, asked
 * for again (src/build/scriptRetry.ts): Gatsby renders nothing while a page's component chunk is missing. The
 * production browser bundle is also watched for the console page's scripts (src/build/consoleFiles.ts).
 */
export const onCreateWebpackConfig: GatsbyNode["onCreateWebpackConfig"] = ({ stage, actions, getConfig }) => {
  // Gatsby types getConfig as a bare Function; it returns the stage's webpack config.
  const config = (getConfig as () => WebpackConfig)();
  const browserBundle = stage === "build-javascript" || stage === "develop";
  const noCache = skipsPersistentCache(stage);
  if (!browserBundle && !noCache) return;
  // replaceWebpackConfig, not setWebpackConfig: Gatsby drops `output` from what setWebpackConfig merges.
  actions.replaceWebpackConfig({
    ...config,
    ...(noCache ? { cache: false } : {}),
    ...(browserBundle
      ? {
          output: { ...config.output, chunkLoadTimeout: CHUNK_LOAD_TIMEOUT_MS },
          plugins: [
            ...(config.plugins ?? []),
            new RetryChunkLoadPlugin({ maxRetries: SCRIPT_LOAD_RETRIES, retryDelay: WEBPACK_RETRY_DELAY }),
            ...(stage === "build-javascript" ? [consoleChunks] : []),
          ],
        }
      : {}),
  });
};

/** `gatsby develop` serves the web editor at /admin/ too, with a local decap-server backend (`npm run cms`). */
export const onCreateDevServer: GatsbyNode["onCreateDevServer"] = async ({ app, store }) => {
  await writeAdminFiles(publicDirOf(store), { ...cmsOptionsFromEnv(), localBackendUrl: LOCAL_BACKEND_URL });
  // The develop server renders HTML itself and answers 404 for pages it did not build: serve the editor's page here.
  (app as Application).get(ADMIN_PATH, (req: Request, res: Response) =>
    req.path.endsWith("/") ? res.type("html").send(adminIndexHtml()) : res.redirect(301, ADMIN_PATH),
  );
};

/** The site's public/ folder, from Gatsby's store (whose type declares `getState` as a bare Function). */
function publicDirOf(store: NodePluginArgs["store"]): string {
  const { program } = (store as unknown as { getState: () => { program: { directory: string } } }).getState();
  return path.join(program.directory, "public");
}
