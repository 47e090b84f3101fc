/**
 * Content pipeline: content/site.yaml → schema validation → one `SiteContent`
 * node → GraphQL (declared in createSchemaCustomization) → page queries.
 *
 * Overrides (see README): SITE_CONTENT_FILE (build from another YAML file),
 * SIGNUP_ENDPOINT_URL (replace the provider endpoint) and SIGNUP_NOSCRIPT_FORM_URL
 * (replace where the no-JavaScript form posts).
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
// A static named import: Gatsby compiles gatsby-node with Parcel, which turned `(await import("chokidar")).default` into undefined.
import { watch, type FSWatcher } from "chokidar";
import type { Request, Response } from "express";
import type { GatsbyNode, NodePluginArgs, Reporter } from "gatsby";
import { contentFilePath, deriveFields, effectiveProvider, type EffectiveProvider } from "./src/content/derive";
import { SITE_CONTENT_TYPE, siteContentTypeDefs } from "./src/content/graphql-types";
import { formatContentErrors, loadContentFile } from "./src/content/load";
import type { SiteContent } from "./src/content/schema";
import { deferScripts } from "./src/build/deferScripts";
import { headersFile } from "./src/build/securityHeaders";
import { ADMIN_PATH, adminIndexHtml, writeAdminFiles } from "./src/build/admin-page";
import { cmsBackendOrigins, cmsOptionsFromEnv, LOCAL_BACKEND_URL } from "./src/content/cms-config";

/** The content the last successful sourceNodes read, with the effective provider URLs (for onPostBuild). */
let builtContent: (SiteContent & { provider: EffectiveProvider }) | null = null;


export const createSchemaCustomization: GatsbyNode["createSchemaCustomization"] = ({ actions }) => {
  actions.createTypes(siteContentTypeDefs());
};

/**
 * Validate the content file and (re)create the one content node.
 * @returns false when the file is invalid (the build has been stopped, or, in develop, the last good node is kept)
 */
function createContentNode(args: NodePluginArgs, file: string, fail: (reporter: Reporter, message: string) => void): boolean {
  const { actions, createNodeId, createContentDigest, reporter } = args;
  const result = loadContentFile(file);
  if (!result.ok) {
    fail(reporter, formatContentErrors(result.errors));
    return false;
  }
  const content = result.content;
  let provider: EffectiveProvider;
  try {
    provider = effectiveProvider(content.provider);
  } catch (error) {
    fail(reporter, (error as Error).message);
    return false;
  }
  const derived = deriveFields(content, Date.now());
  if (derived.demoMode) {
    reporter.warn(
      `${path.relative(process.cwd(), file)}: provider.demoMode is on. Signups on this build are SIMULATED and sent nowhere. Set demoMode: false with a public API key and list id before a real launch.`,
    );
  }
  const data = { ...content, provider, derived };
  builtContent = data;
  actions.createNode({
    ...data,
    id: createNodeId(SITE_CONTENT_TYPE),
    parent: null,
    children: [],
    internal: { type: SITE_CONTENT_TYPE, contentDigest: createContentDigest({ ...data, derived: { ...derived, builtAtMs: 0 } }) },
  });
  return true;
}

/** The develop-mode watcher on the content file (one per process). */
let contentWatcher: FSWatcher | null = null;

/** Gatsby's error id for content mistakes, so the build shows "ERROR #…_CONTENT" instead of "ERROR UNKNOWN". */
const CONTENT_ERROR_ID = "CONTENT";

export const sourceNodes: GatsbyNode["sourceNodes"] = (args) => {
  const file = contentFilePath();
  args.reporter.info(`Reading site content from ${path.relative(process.cwd(), file)}`);
  // The message is the same text `npm run check-content` prints; the error map only names its category.
  args.reporter.setErrorMap({ [CONTENT_ERROR_ID]: { text: (context: { sourceMessage: string }) => context.sourceMessage, level: "ERROR", category: "USER" } });
  createContentNode(args, file, (reporter, message) => reporter.panicOnBuild({ id: CONTENT_ERROR_ID, context: { sourceMessage: message } }));

  if (process.env.gatsby_executing_command === "develop" && !contentWatcher) {
    // Editors preview live: re-validate on save; a broken edit is reported and the last good content stays on screen.
    contentWatcher = watch(file, { ignoreInitial: true, awaitWriteFinish: { stabilityThreshold: 100 } });
    // "add" too: editors that save atomically replace the file instead of changing it.
    contentWatcher.on("all", (event) => {
      if (event !== "change" && event !== "add") return;
      if (createContentNode(args, file, (reporter, message) => reporter.error({ id: CONTENT_ERROR_ID, context: { sourceMessage: message } }))) {
        args.reporter.success(`Reloaded ${path.relative(process.cwd(), file)}`);
      }
    });
  }
};

/**
 * After the build: the web app manifest (from the content, so the brand name lives
 * only in the YAML) and `_headers` with the security headers, whose CSP hashes
 * Gatsby's inline scripts as they stand in the finished HTML.
 */
export const onPostBuild: GatsbyNode["onPostBuild"] = async ({ store, reporter }) => {
  if (!builtContent) return;
  const { program } = store.getState() as { program: { directory: string } };
  const publicDir = path.join(program.directory, "public");
  const { site } = builtContent;
  const manifest = {
    name: site.brandName,
    short_name: site.brandName,
    description: site.metaDescription,
    start_url: "/",
    display: "standalone",
    background_color: site.themeColor,
    theme_color: site.themeColor,
    icons: [
      { src: "/icon-192.png", sizes: "192x192", type: "image/png" },
      { src: "/icon-512.png", sizes: "512x512", type: "image/png" },
      { src: "/favicon.svg", sizes: "any", type: "image/svg+xml" },
    ],
  };
  await writeFile(path.join(publicDir, "manifest.webmanifest"), `${JSON.stringify(manifest, null, 2)}\n`);

  // The web editor (/admin/); production builds have no local backend.
  const cms = cmsOptionsFromEnv();
  await writeAdminFiles(publicDir, cms);

  const htmlFiles = (await readdir(publicDir, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile() && entry.name.endsWith(".html"));
  // Scripts start after the first paint (deferScripts.ts); done before the CSP hashes the pages' inline scripts.
  const htmlPages = await Promise.all(
    htmlFiles.map(async (entry) => {
      const file = path.join(entry.parentPath, entry.name);
      const html = deferScripts(await readFile(file, "utf8"));
      await writeFile(file, html);
      return html;
    }),
  );
  const { endpointUrl, noScriptFormUrl } = builtContent.provider;
  const headers = headersFile({ htmlPages, endpointUrl, noScriptFormUrl, pixel: Boolean(builtContent.adPixel?.id), admin: cmsBackendOrigins(cms.backend) });
  await writeFile(path.join(publicDir, "_headers"), headers);
  reporter.info(`Wrote public/_headers (CSP over ${htmlPages.length} pages)`);
};

/**
 * `gatsby develop` serves the web editor at /admin/ too (from public/, as it serves
 * static files), with decap-server on this machine as its backend (`npm run cms`
 * starts both): saves go straight to the files.
 */
export const onCreateDevServer: GatsbyNode["onCreateDevServer"] = async ({ app, store }) => {
  const { program } = store.getState() as { program: { directory: string } };
  await writeAdminFiles(path.join(program.directory, "public"), { ...cmsOptionsFromEnv(), localBackendUrl: LOCAL_BACKEND_URL });
  // The develop server renders HTML itself and answers 404 for pages it did not build: serve the editor's page here.
  app.get(ADMIN_PATH, (req: Request, res: Response) => (req.path.endsWith("/") ? res.type("html").send(adminIndexHtml()) : res.redirect(301, ADMIN_PATH)));
};
