/**
 * The broken-campaign corpus: every file in `broken-campaigns/` is a campaign file
 * with ONE mistake (its first comment lines say which), checked against the test
 * fixture's site file as the build checks content/campaigns/ against content/site.yaml.
 * Each must be refused with exactly one error at the campaign file's own line and
 * column, in the words below. Changing a message means changing this table.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { CAMPAIGN_SLUG_PATTERN, campaignFileNameProblem, loadCampaign, RESERVED_SLUGS } from "../../src/content/campaigns";
import { loadCampaignFile, loadContentFile } from "../../src/content/load";
import { FIXTURE_FILE } from "../support/content";

const BROKEN = path.join(__dirname, "broken-campaigns");
const ROOT = path.join(__dirname, "..", "..");
const SITE_SHOWN = path.relative(process.cwd(), FIXTURE_FILE);

const site = loadContentFile(FIXTURE_FILE);
if (!site.ok) throw new Error("the fixture site file must be valid");

/** Load a broken campaign file over the fixture and return its errors (fails the test when it is accepted). */
function errorsOf(file: string) {
  const { result } = loadCampaign(file, site.ok ? site.content : (undefined as never), FIXTURE_FILE);
  if (result.ok) throw new Error(`${file} was accepted, but it is broken on purpose`);
  return result.errors;
}

// [file in broken-campaigns/ without .yaml, line, column, field, message]
const CORPUS: [string, number, number, string, string][] = [
  ["unknown-key", 7, 3, "home.titel", "`titel` is not a field in `home`. Did you mean `title`?"],
  [
    "success",
    1,
    1,
    "",
    "The address /success/ already belongs to the site's own page or files, so a campaign there would replace it. Rename `success.yaml`, for example to `success-campaign.yaml`.",
  ],
  [
    "nba_ads",
    1,
    1,
    "",
    "The file name is the page's address (/nba_ads/), and campaign addresses use only lowercase letters, digits and hyphens between them. Rename `nba_ads.yaml`, for example to `nba-ads.yaml`.",
  ],
  [
    "site-wide-provider",
    9,
    1,
    "provider",
    `\`provider\` is site-wide: every page sends its signups to the same list. It can only be set in ${SITE_SHOWN}: remove it from this campaign file.`,
  ],
  [
    "site-wide-success",
    6,
    1,
    "success",
    `\`success\` is the /success/ page, which every campaign leads to and shares. It can only be set in ${SITE_SHOWN}: remove it from this campaign file.`,
  ],
  [
    "site-wide-referrals",
    6,
    1,
    "referrals",
    `\`referrals\` is the referral program: one set of rules for everyone in line, and its words are on the /success/ and status pages every campaign shares. It can only be set in ${SITE_SHOWN}: remove it from this campaign file.`,
  ],
  ["missing-source", 3, 1, "campaign.source", "The field `source` is missing from `campaign`. Add it on its own line in that section."],
  ["wrong-type", 7, 12, "home.tagline", "This should be text. Put it in quotes."],
  ["odds-too-many", 7, 9, "decorations.odds", "Give at most 12 odds numbers; more would crowd the page."],
  [
    "source-too-long",
    4,
    11,
    "campaign.source",
    "A source has at most 100 characters; the waitlist service would refuse every signup with a longer one. Use a short name, like the ad campaign's.",
  ],
];

describe("broken campaign corpus", () => {
  it("has a row in the table for every file in broken-campaigns/, and a file for every row", () => {
    const files = readdirSync(BROKEN)
      .filter((name) => name.endsWith(".yaml"))
      .map((name) => name.replace(/\.yaml$/, ""))
      .sort();
    expect(CORPUS.map(([name]) => name).sort()).toEqual(files);
  });

  it.each(CORPUS)("%s: refused at line %i, column %i, field %j", (name, line, column, field, message) => {
    const file = path.join(BROKEN, `${name}.yaml`);
    expect(readFileSync(file, "utf8")).toMatch(/^# Broken on purpose .*\n# Mistake: \S/);
    const errors = errorsOf(file);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ file: path.relative(process.cwd(), file), line, column, field, message });
  });
});

describe("campaign file names", () => {
  it.each([
    ["nba-ads.yaml", null],
    ["launch-week-2.yaml", null],
    ["NBA.yaml", /lowercase letters, digits and hyphens.*`nba\.yaml`/],
    ["-nba.yaml", /lowercase letters, digits and hyphens.*`nba\.yaml`/],
    ["nba--ads.yaml", /lowercase letters, digits and hyphens.*`nba-ads\.yaml`/],
    ["nba ads.yaml", /lowercase letters, digits and hyphens.*`nba-ads\.yaml`/],
    ["nba-ads.yml", /^Campaign files end in \.yaml\. Rename `nba-ads\.yml` to `nba-ads\.yaml`\.$/],
    ["admin.yaml", /^The address \/admin\/ already belongs to the site's own web editor/],
    ["404.yaml", /^The address \/404\/ already belongs/],
    ["page-data.yaml", /^The address \/page-data\/ already belongs/],
    ["static.yaml", /^The address \/static\/ already belongs/],
  ])("%s: %p", (name, expected) => {
    const problem = campaignFileNameProblem(path.join("content", "campaigns", name));
    if (expected === null) expect(problem).toBeNull();
    else expect(problem).toMatch(expected);
  });

  it("reserves every page in src/pages and every folder of static/", () => {
    const pages = readdirSync(path.join(ROOT, "src", "pages")).map((name) => name.replace(/\.[jt]sx?$/, ""));
    const staticFolders = readdirSync(path.join(ROOT, "static"), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    for (const name of [...pages, ...staticFolders].filter((candidate) => CAMPAIGN_SLUG_PATTERN.test(candidate))) {
      expect([name, RESERVED_SLUGS.includes(name)]).toEqual([name, true]);
    }
  });
});

describe("a campaign file the web editor wrote", () => {
  it("reads an emptied text or list as 'the site file's', as the editor means it", () => {
    const text =
      'campaign:\n  source: nba-ads\n  metaDescription: ""\nhome:\n  title: NBA title\n  tagline: ""\ndecorations:\n  odds: []\n';
    const result = loadCampaignFile(
      path.join(ROOT, "content", "campaigns", "nba-ads.yaml"),
      site.ok ? site.content : (undefined as never),
      FIXTURE_FILE,
      text,
    );
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(result.content.home.title).toBe("NBA title");
    expect(result.content.home.tagline).toBe(site.ok ? site.content.home.tagline : "");
    expect(result.content.decorations.odds).toEqual(site.ok ? site.content.decorations.odds : []);
    expect(result.content.campaign).toEqual({ source: "nba-ads" });
  });
});
