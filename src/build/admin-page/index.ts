/**
 * `public/admin/`, the web editor: Decap CMS's prebuilt bundle (copied, never through webpack, so the
 * site's bundles do not grow), its page, `config.yml` from the schema and our YAML format. Build-time only.
 */
import { cp, mkdir, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { cmsConfigYaml, CONTENT_FORMAT, keyOrder, type CmsOptions } from "../../content/cms-config";
import { campaignJsonSchema, contentJsonSchema } from "../../content/json-schema";
import { ADMIN_PATH } from "../../../shared/routes";

export { ADMIN_PATH };

/** Resolve a file of an installed package from the project root (Gatsby compiles gatsby-node with Parcel, which rewrites a plain `require.resolve`). */
function packageFile(request: string): string {
  return createRequire(path.join(process.cwd(), "package.json")).resolve(request);
}

/** This folder in the source tree (gatsby-node runs from a compiled copy, so not `__dirname`). */
function sourceDir(): string {
  return path.join(process.cwd(), "src", "build", "admin-page");
}

/** The editor's HTML page. `noindex`: search engines must not list it (`_headers` says so too). No inline script: its CSP allows none. */
export function adminIndexHtml(): string {
  const title = (contentJsonSchema().title as string | undefined) ?? "Site content";
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="robots" content="noindex, nofollow">
  <title>${title}</title>
</head>
<body>
  <script src="${ADMIN_PATH}manual-init.js"></script>
  <script src="${ADMIN_PATH}decap-cms.js"></script>
  <script type="module" src="${ADMIN_PATH}editor.js"></script>
</body>
</html>
`;
}

/**
 * `key-order.js`: the format's name and the schemas' key order, for editor.js. One order
 * serves both kinds of file: a campaign file's `campaign` section first, then the site
 * file's order, which a campaign file's other sections follow.
 */
export function keyOrderModule(): string {
  const order = { campaign: keyOrder(campaignJsonSchema()).campaign, ...keyOrder(contentJsonSchema()) };
  return `// Written by the build from the content schema. Do not edit.\nexport const CONTENT_FORMAT = ${JSON.stringify(CONTENT_FORMAT)};\nexport const KEY_ORDER = ${JSON.stringify(order)};\n`;
}

/** Every file of /admin/: its name there, and either its text or the file (or folder) to copy. */
function adminFiles(options: CmsOptions): { name: string; text?: string; source?: string }[] {
  return [
    { name: "index.html", text: adminIndexHtml() },
    { name: "config.yml", text: cmsConfigYaml(options) },
    { name: "key-order.js", text: keyOrderModule() },
    { name: "decap-cms.js", source: packageFile("decap-cms/dist/decap-cms.js") },
    { name: "yaml", source: path.join(path.dirname(packageFile("yaml/package.json")), "browser", "dist") },
    ...["manual-init.js", "editor.js", "content-format.js"].map((name) => ({ name, source: path.join(sourceDir(), name) })),
  ];
}

/**
 * Write `public/admin/`.
 * @param options `localBackendUrl` only for `gatsby develop`, never in a production build
 */
export async function writeAdminFiles(publicDir: string, options: CmsOptions): Promise<void> {
  const dir = path.join(publicDir, ADMIN_PATH);
  await mkdir(dir, { recursive: true });
  await Promise.all(
    adminFiles(options).map((file) =>
      file.text !== undefined
        ? writeFile(path.join(dir, file.name), file.text)
        : cp(file.source as string, path.join(dir, file.name), { recursive: true }),
    ),
  );
}
