/**
 * Content pipeline: content/site.yaml → schema validation → one `SiteContent`
 * node → GraphQL (declared in createSchemaCustomization) → page queries.
 *
 * Overrides (see README): SITE_CONTENT_FILE (build from another YAML file) and
 * SIGNUP_ENDPOINT_URL (replace the provider endpoint).
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
// A static named import: Gatsby compiles gatsby-node with Parcel, which turned `(await import("chokidar")).default` into undefined.
import { watch } from "chokidar";
import type { GatsbyNode, NodePluginArgs, Reporter } from "gatsby";
import { contentFilePath, deriveFields, signupEndpointOverride } from "./src/content/derive";
import { SITE_CONTENT_TYPE, siteContentTypeDefs } from "./src/content/graphql-types";
import { formatContentErrors, loadContentFile } from "./src/content/load";
import type { SiteContent } from "./src/content/schema";

/** The content the last successful sourceNodes read (for onPostBuild). */
let builtContent: SiteContent | null = null;


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
  let endpointOverride: string | undefined;
  try {
    endpointOverride = signupEndpointOverride();
  } catch (error) {
    fail(reporter, (error as Error).message);
    return false;
  }
  const provider = { ...content.provider, endpointUrl: endpointOverride ?? content.provider.endpointUrl };
  const derived = deriveFields(content, Date.now());
  if (derived.demoMode) {
    reporter.warn(
      `${path.relative(process.cwd(), file)}: provider.demoMode is on. Signups on this build are SIMULATED and sent nowhere. Set demoMode: false with a public API key and list id before a real launch.`,
    );
  }
  builtContent = content;
  const data = { ...content, provider, derived };
  actions.createNode({
    ...data,
    id: createNodeId(SITE_CONTENT_TYPE),
    parent: null,
    children: [],
    internal: { type: SITE_CONTENT_TYPE, contentDigest: createContentDigest({ ...data, derived: { ...derived, builtAtMs: 0 } }) },
  });
  return true;
}

/** Gatsby's error id for content mistakes, so the build shows "ERROR #…_CONTENT" instead of "ERROR UNKNOWN". */
const CONTENT_ERROR_ID = "CONTENT";

export const sourceNodes: GatsbyNode["sourceNodes"] = async (args) => {
  const file = contentFilePath();
  args.reporter.info(`Reading site content from ${path.relative(process.cwd(), file)}`);
  // The message is the same text `npm run check-content` prints; the error map only names its category.
  args.reporter.setErrorMap({ [CONTENT_ERROR_ID]: { text: (context: { sourceMessage: string }) => context.sourceMessage, level: "ERROR", category: "USER" } });
  createContentNode(args, file, (reporter, message) => reporter.panicOnBuild({ id: CONTENT_ERROR_ID, context: { sourceMessage: message } }));

  if (process.env.gatsby_executing_command === "develop") {
    // Editors preview live: re-validate on save; a broken edit is reported and the last good content stays on screen.
    watch(file, { ignoreInitial: true }).on("change", () => {
      if (createContentNode(args, file, (reporter, message) => reporter.error({ id: CONTENT_ERROR_ID, context: { sourceMessage: message } }))) {
        args.reporter.success(`Reloaded ${path.relative(process.cwd(), file)}`);
      }
    });
  }
};

/** Web app manifest (name, colours, icons) written from the content, so the brand name lives only in the YAML. */
export const onPostBuild: GatsbyNode["onPostBuild"] = async ({ store }) => {
  if (!builtContent) return;
  const { program } = store.getState() as { program: { directory: string } };
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
  await writeFile(path.join(program.directory, "public", "manifest.webmanifest"), `${JSON.stringify(manifest, null, 2)}\n`);
};
