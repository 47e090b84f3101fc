/** Finds the campaign files beside the site file, checks their names and loads each merged over it. Build-time only. */
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import type { ContentError } from "./content-error";
import { loadCampaignFile, loadContentFile } from "./load";
import type { CampaignContent, SiteContent } from "./schema";

/** The folder, beside the site file, that holds the campaign files. */
export const CAMPAIGNS_FOLDER = "campaigns";

/**
 * A page address is the file name: lowercase letters, digits and single hyphens
 * between them, so that the address reads the same everywhere it is typed or shared.
 */
export const CAMPAIGN_SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * Addresses the site already uses: its own pages (src/pages, the referral program's too, even
 * while it is off), Gatsby's output folders, the web editor's page and the waitlist service's
 * API. A campaign there would replace them.
 * A unit test holds this list to src/pages, static/ and the built public/ folder.
 */
export const RESERVED_SLUGS: readonly string[] = [
  "index",
  "success",
  "status",
  "leaderboard",
  "console",
  "invite",
  "transparency",
  "404",
  "dev-404-page",
  "page-data",
  "static",
  "admin",
  // The waitlist service answers everything under /api/ before any page.
  "api",
];

/** One campaign file, loaded. */
export interface CampaignFileResult {
  /** Path of the YAML file. */
  file: string;
  /** The file name without `.yaml`: the page's address is `/<slug>/`. */
  slug: string;
  /** The page's path, `/<slug>/`. */
  pagePath: string;
  result: { ok: true; content: CampaignContent } | { ok: false; errors: ContentError[] };
}

/** The site file and all its campaign files, loaded. */
export interface AllContent {
  site: { file: string; result: ReturnType<typeof loadContentFile> };
  /** Sorted by file name; empty while the site file itself is invalid (they cannot be merged over it). */
  campaigns: CampaignFileResult[];
}

/** The campaigns folder of a site file: `campaigns/` in the same folder. */
export function campaignsFolderFor(siteFile: string): string {
  return path.join(path.dirname(path.resolve(siteFile)), CAMPAIGNS_FOLDER);
}

/** Is `file` a campaign file (a YAML file in a folder named `campaigns`)? */
export function isCampaignFile(file: string): boolean {
  return path.basename(path.dirname(path.resolve(file))) === CAMPAIGNS_FOLDER;
}

/**
 * The site file a campaign file is merged over: `defaultSiteFile` when the campaign
 * sits in its campaigns folder, otherwise `site.yaml` in the folder above.
 */
export function siteFileFor(campaignFile: string, defaultSiteFile: string): string {
  const folder = path.dirname(path.resolve(campaignFile));
  return folder === campaignsFolderFor(defaultSiteFile) ? path.resolve(defaultSiteFile) : path.join(path.dirname(folder), "site.yaml");
}

/**
 * The campaign files in `folder` (`.yaml`, and `.yml` so that its name can be refused with a fix), sorted.
 * @returns absolute paths; empty when the folder does not exist
 */
export function listCampaignFiles(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.ya?ml$/.test(entry.name))
    .map((entry) => path.join(folder, entry.name))
    .sort();
}

/** The address part a file name gives, without its extension. */
export function slugOf(file: string): string {
  return path.basename(file).replace(/\.ya?ml$/, "");
}

/**
 * Why a campaign file's name cannot be a page address, or null when it can.
 * @returns a plain-English explanation with a fix
 */
export function campaignFileNameProblem(file: string): string | null {
  const name = path.basename(file);
  const slug = slugOf(file);
  if (name.endsWith(".yml")) return `Campaign files end in .yaml. Rename \`${name}\` to \`${slug}.yaml\`.`;
  if (!CAMPAIGN_SLUG_PATTERN.test(slug)) {
    const suggestion =
      slug
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, "-")
        .replace(/^-|-$/g, "") || "nba-ads";
    return `The file name is the page's address (/${slug}/), and campaign addresses use only lowercase letters, digits and hyphens between them. Rename \`${name}\`, for example to \`${suggestion}.yaml\`.`;
  }
  if (RESERVED_SLUGS.includes(slug)) {
    return `The address /${slug}/ already belongs to the site's own ${slug === "admin" ? "web editor" : "page or files"}, so a campaign there would replace it. Rename \`${name}\`, for example to \`${slug}-campaign.yaml\`.`;
  }
  return null;
}

/**
 * Load one campaign file: its name, then its content merged over `site` (validated).
 * @param siteFile named in messages
 * @throws only when the file cannot be read
 */
export function loadCampaign(file: string, site: SiteContent, siteFile: string): CampaignFileResult {
  const slug = slugOf(file);
  const nameProblem = campaignFileNameProblem(file);
  const loaded = loadCampaignFile(file, site, siteFile);
  const errors: ContentError[] = [
    ...(nameProblem ? [{ file: path.relative(process.cwd(), file) || file, line: 1, column: 1, field: "", message: nameProblem }] : []),
    ...(loaded.ok ? [] : loaded.errors),
  ];
  return { file, slug, pagePath: `/${slug}/`, result: errors.length > 0 ? { ok: false, errors } : loaded };
}

/**
 * Load the site file and every campaign file beside it.
 * @throws only when a file cannot be read
 */
export function loadAllContent(siteFile: string): AllContent {
  const result = loadContentFile(siteFile);
  if (!result.ok) return { site: { file: siteFile, result }, campaigns: [] };
  const campaigns = listCampaignFiles(campaignsFolderFor(siteFile)).map((file) => loadCampaign(file, result.content, siteFile));
  return { site: { file: siteFile, result }, campaigns };
}

/** Every mistake in the site file and its campaign files, in file order. */
export function allErrors(content: AllContent): ContentError[] {
  return [content.site.result, ...content.campaigns.map((campaign) => campaign.result)].flatMap((result) =>
    result.ok ? [] : result.errors,
  );
}
