/**
 * The bench's second build: production content with the referral program on and a campaign page, so those
 * pages are audited even while the production content has neither.
 */
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseDocument } from "yaml";
import { CAMPAIGNS_FOLDER, slugOf } from "../../src/content/campaigns";
import { contentFilePath } from "../../src/content/derive";
import { buildAside } from "../lib/gatsby-build";
import type { LeaderboardAnswer } from "../../shared/api/referrals";
import { checkpointText } from "../../shared/audit-chain";
import { signerFromSecret, signNote, verifierKeyOf } from "../../shared/signed-note";
import type { TransparencyReport } from "../../shared/transparency";

/** The campaign the features build adds (CONTENT.md's worked example): its page is `/nba-ads/`. */
export const BENCH_CAMPAIGN_FILE = path.join(__dirname, CAMPAIGNS_FOLDER, "nba-ads.yaml");

/**
 * What the static server answers for `GET /api/leaderboard` while the bench audits the leaderboard: ten rows,
 * the size of the board the service sends, with names as long as real ones, so the table is measured full.
 */
export const LEADERBOARD_STAND_IN: LeaderboardAnswer = {
  entries: [
    ["Jordan S.", 41],
    ["Maria G.", 37],
    ["Alexander W.", 30],
    ["Priya K.", 24],
    ["Chris O.", 19],
    ["Sam T.", 15],
    ["Guillermo R.", 12],
    ["Aisha B.", 9],
    ["Nick D.", 6],
    ["Lee H.", 3],
  ].map(([name, referrals], index) => ({ rank: index + 1, name: name as string, referrals: referrals as number })),
};

/** The audit log's key in TRANSPARENCY_STAND_IN (a bench's own: nothing checks against it). */
const BENCH_AUDIT_KEY = signerFromSecret("www.example.com/audit-log", "the bench's audit signing key, not a real one");

/**
 * What the static server answers for `GET /transparency/report.json` while the bench audits /transparency/: a
 * quarter of weeks, three draws in every state a visitor meets, and a real signed checkpoint, so the page is measured
 * full.
 */
export const TRANSPARENCY_STAND_IN: TransparencyReport = {
  generatedAt: "2026-12-07T09:05:00.000Z",
  utcOffsetMinutes: -480,
  weeks: Array.from({ length: 13 }, (_, index) => ({
    week: new Date(Date.UTC(2026, 11, 7) - index * 7 * 86_400_000).toISOString().slice(0, 10),
    signups: 41_000 - index * 2_900,
    confirmed: 36_500 - index * 2_600,
    disqualified: 120 - index * 7,
    erased: 14 + index,
    invited: index < 2 ? 5_000 : 0,
  })),
  draws: [
    {
      id: "launch-2",
      state: "committed",
      cutoff: "2026-12-01T00:00:00Z",
      winners: 3,
      round: 4_812_345,
      committedAt: "2026-12-01T00:04:00Z",
      listHash: "9f".repeat(32),
      entrants: 412_345,
      failure: null,
      replacedBy: null,
    },
    {
      id: "launch",
      state: "failed",
      cutoff: "2026-11-01T00:00:00Z",
      winners: 3,
      round: null,
      committedAt: null,
      listHash: null,
      entrants: null,
      failure: "round_published",
      replacedBy: "launch-2",
    },
    {
      id: "preview",
      state: "announced",
      cutoff: "2026-10-01T00:00:00Z",
      winners: 1,
      round: null,
      committedAt: null,
      listHash: null,
      entrants: null,
      failure: null,
      replacedBy: "launch-2",
    },
  ],
  auditLog: {
    origin: BENCH_AUDIT_KEY.name,
    verifierKey: verifierKeyOf(BENCH_AUDIT_KEY),
    size: 1_284,
    checkpoint: signNote(checkpointText(BENCH_AUDIT_KEY.name, { size: 1_284, hash: "3c".repeat(32) }), BENCH_AUDIT_KEY),
  },
};

export interface FeaturesBuild {
  /** The built site (a `public/` of its own, source maps included). */
  publicDir: string;
  /** The campaign page's path, e.g. `/nba-ads/`. */
  campaignPath: string;
}

/**
 * Build the production content with `referrals.enabled: true` and BENCH_CAMPAIGN_FILE into `outDir`, leaving the
 * project's own `public/` as it was (buildAside).
 * @param projectDir the repository root, with a built `public/`
 * @param outDir replaced if it exists
 * @throws Error naming the log when the build fails (the project's `public/` is still put back)
 */
export async function buildFeatures(projectDir: string, outDir: string, log: NodeJS.WritableStream): Promise<FeaturesBuild> {
  const contentDir = await mkdtemp(path.join(tmpdir(), "bench-features-"));
  try {
    const siteFile = path.join(contentDir, "site.yaml");
    const site = parseDocument(await readFile(contentFilePath(), "utf8"));
    site.setIn(["referrals", "enabled"], true);
    await writeFile(siteFile, site.toString());
    await mkdir(path.join(contentDir, CAMPAIGNS_FOLDER));
    await copyFile(BENCH_CAMPAIGN_FILE, path.join(contentDir, CAMPAIGNS_FOLDER, path.basename(BENCH_CAMPAIGN_FILE)));
    await buildAside(outDir, { projectDir, env: { SITE_CONTENT_FILE: siteFile }, log });
  } finally {
    await rm(contentDir, { recursive: true, force: true });
  }
  return { publicDir: outDir, campaignPath: `/${slugOf(BENCH_CAMPAIGN_FILE)}/` };
}
