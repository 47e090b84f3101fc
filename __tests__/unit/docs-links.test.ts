/**
 * The documentation's own links: every relative link and image in README.md, CONTENT.md and docs/*.md names a file
 * that exists, and every `#anchor` names a heading of the file it points into, by GitHub's slug rules.
 * @jest-environment node
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

const ROOT_DIR = path.join(__dirname, "..", "..");
const DOCS_DIR = path.join(ROOT_DIR, "docs");
const DOCUMENTS = [
  "README.md",
  "CONTENT.md",
  ...readdirSync(DOCS_DIR)
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];

/**
 * A heading's anchor as GitHub writes it (the rules of `github-slugger`): the text as rendered (no code ticks, link
 * targets or emphasis marks), lower case, every character that is not a letter, mark, digit, connector, space or
 * hyphen dropped, each space a hyphen. A repeated slug gets `-1`, `-2`, … in order, kept in `seen`.
 */
function githubSlug(heading: string, seen: Map<string, number>): string {
  const rendered = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<[^>]+>/g, "")
    .trim();
  const base = rendered
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
  const count = seen.get(base);
  seen.set(base, (count ?? -1) + 1);
  return count === undefined ? base : `${base}-${count + 1}`;
}

/** The Markdown without its fenced code blocks, whose `#` lines are shell comments and whose brackets are no links. */
function withoutFences(markdown: string): string {
  return markdown.replace(/^ *(```|~~~)[^\n]*\n[\s\S]*?^ *\1[^\n]*$/gm, "");
}

/** The text a reader sees as prose: code blocks and inline code spans left out. */
function withoutCode(markdown: string): string {
  return withoutFences(markdown).replace(/`+[^`\n]*`+/g, "");
}

/** The anchors of a Markdown file's headings (ATX `#` headings outside code blocks). */
function anchorsOf(file: string): Set<string> {
  const seen = new Map<string, number>();
  const headings = withoutFences(readFileSync(file, "utf8")).match(/^#{1,6} .*$/gm) ?? [];
  return new Set(headings.map((line) => githubSlug(line.replace(/^#+ /, ""), seen)));
}

/** Every link target in a document: Markdown links and images, and HTML `src`/`href` attributes. */
function targetsOf(markdown: string): string[] {
  const prose = withoutCode(markdown);
  const markdownLinks = [...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1]);
  const htmlLinks = [...prose.matchAll(/\s(?:src|href)="([^"]+)"/g)].map((match) => match[1]);
  return [...markdownLinks, ...htmlLinks];
}

/** What is wrong with one relative target of `document`, or null when it resolves. */
function brokenTarget(document: string, target: string): string | null {
  const [filePart, anchor] = target.split("#", 2) as [string, string | undefined];
  const file =
    filePart === "" ? path.join(ROOT_DIR, document) : path.resolve(path.dirname(path.join(ROOT_DIR, document)), decodeURI(filePart));
  if (!existsSync(file)) return `${target}: no file ${path.relative(ROOT_DIR, file)}`;
  if (anchor === undefined || anchor === "") return null;
  if (!file.endsWith(".md")) return `${target}: an anchor into a file that is not Markdown`;
  return anchorsOf(file).has(decodeURIComponent(anchor)) ? null : `${target}: no heading #${anchor} in ${path.relative(ROOT_DIR, file)}`;
}

describe("GitHub's heading anchors", () => {
  it.each([
    ["The referral program (the service's side)", "the-referral-program-the-services-side"],
    ["Editing in the browser (`/admin/`)", "editing-in-the-browser-admin"],
    ["`site` – the whole site", "site--the-whole-site"],
    ["5. Campaign pages", "5-campaign-pages"],
    ["For editors: what lives in `content/site.yaml`", "for-editors-what-lives-in-contentsiteyaml"],
  ])("writes %j as #%s", (heading, slug) => {
    expect(githubSlug(heading, new Map())).toBe(slug);
  });

  it("numbers a repeated heading's anchor", () => {
    const seen = new Map<string, number>();
    expect(["Deploy", "Deploy", "Deploy"].map((heading) => githubSlug(heading, seen))).toEqual(["deploy", "deploy-1", "deploy-2"]);
  });
});

describe("documentation links", () => {
  it("finds the documents and their links", () => {
    expect(DOCUMENTS).toEqual(expect.arrayContaining(["README.md", "CONTENT.md", "docs/deploy.md"]));
    expect(targetsOf(readFileSync(path.join(ROOT_DIR, "README.md"), "utf8"))).toContain("docs/deploy.md#the-waitlist-service");
  });

  it.each(DOCUMENTS)("every relative link and anchor in %s resolves", (document) => {
    const targets = targetsOf(readFileSync(path.join(ROOT_DIR, document), "utf8")).filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
    expect(targets.map((target) => brokenTarget(document, target)).filter((problem) => problem !== null)).toEqual([]);
  });
});
