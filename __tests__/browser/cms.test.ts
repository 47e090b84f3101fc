/**
 * The web editor at /admin/, driven in a real browser as an editor uses it: Decap CMS
 * from the fixture build, saving through decap-server (the local backend) into a
 * temporary copy of the repository's content. A save must leave a file the build
 * accepts, that means what the editor typed and nothing else, in the same layout,
 * still mapped to its JSON Schema; a mistake must be refused in the form.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import Ajv2020 from "ajv/dist/2020";
import type { Locator, Page } from "@playwright/test";
import { parse } from "yaml";
import { cmsConfigYaml, cmsOptionsFromEnv } from "../../src/content/cms-config";
import { contentJsonSchema } from "../../src/content/json-schema";
import { loadContentFile } from "../../src/content/load";
import { ROOT_DIR } from "./support/build-site";
import { expect, test } from "./support/fixtures";
import { VIEWPORTS } from "./support/viewports";

/** The content file as the editor's collection names it, relative to the repository. */
const CONTENT_FILE = path.join("content", "site.yaml");
/** Where the screenshot of the editor goes (docs/screenshots/ holds a reviewed copy). */
const SCREENSHOT = path.join(ROOT_DIR, "artifacts", "screenshots", "cms-editor.png");
/** The original file, as editors and the build know it. */
const ORIGINAL = readFileSync(path.join(ROOT_DIR, CONTENT_FILE), "utf8");
/** What the form says about a value that is no public API key: the content schema's patternErrorMessage. */
const PUBLIC_API_KEY_MESSAGE = (
  contentJsonSchema() as { properties: { provider: { properties: { publicApiKey: { patternErrorMessage: string } } } } }
).properties.provider.properties.publicApiKey.patternErrorMessage;

let repo: string;
let server: ChildProcess;
let backendUrl: string;
/** Bodies of the save requests the editor sent to decap-server. */
let saves: string[];

/** A free TCP port on 127.0.0.1. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

test.use({ viewport: VIEWPORTS.desktop, deviceScaleFactor: 1 });

test.beforeAll(async () => {
  // A copy of what the editor and VS Code read: the content folder and the schema mapping.
  repo = mkdtempSync(path.join(tmpdir(), "cms-repo-"));
  cpSync(path.join(ROOT_DIR, "content"), path.join(repo, "content"), { recursive: true });
  mkdirSync(path.join(repo, ".vscode"));
  cpSync(path.join(ROOT_DIR, ".vscode", "settings.json"), path.join(repo, ".vscode", "settings.json"));

  const port = await freePort();
  backendUrl = `http://127.0.0.1:${port}/api/v1`;
  server = spawn(path.join(ROOT_DIR, "node_modules", ".bin", "decap-server"), [], {
    cwd: repo,
    env: { ...process.env, PORT: String(port), BIND_HOST: "127.0.0.1", MODE: "fs", GIT_REPO_DIRECTORY: repo, LOG_LEVEL: "error" },
    stdio: "ignore",
  });
  await expect
    .poll(
      async () => {
        const answer = await fetch(backendUrl, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ action: "info" }),
        }).catch(() => null);
        return answer?.ok ?? false;
      },
      { message: `decap-server answering at ${backendUrl}` },
    )
    .toBe(true);
});

test.afterAll(() => {
  server?.kill();
  if (repo) rmSync(repo, { recursive: true, force: true });
});

test.beforeEach(async ({ context, page }) => {
  writeFileSync(path.join(repo, CONTENT_FILE), ORIGINAL);
  // The build's config.yml, with decap-server's address on this run's port (npm run cms uses 8081).
  await context.route("**/admin/config.yml", (route) =>
    route.fulfill({ contentType: "text/yaml", body: cmsConfigYaml({ ...cmsOptionsFromEnv({}), localBackendUrl: backendUrl }) }),
  );
  saves = [];
  page.on("request", (request) => {
    const body = request.postData() ?? "";
    if (request.url() === backendUrl && body.includes('"persistEntry"')) saves.push(body);
  });
});

/** The file on disk, in the temporary repository. */
const savedText = () => readFileSync(path.join(repo, CONTENT_FILE), "utf8");

/** Sign in with the local backend and open the site's content entry. */
async function openSiteEntry(page: Page): Promise<void> {
  await page.goto("/admin/");
  await page.getByRole("button", { name: "Login" }).click();
  await page.goto("/admin/#/collections/site/entries/site");
  await expect(field(page, ["Home"], "Title")).toBeVisible();
}

/** A section of the form by its label ("Home", or "Ad pixel (optional)"). */
function section(page: Page, scope: Page | Locator, label: string): Locator {
  return scope
    .locator('[aria-label="object field"]')
    .filter({ has: page.locator("label", { hasText: new RegExp(`^${label}( \\(optional\\))?$`) }) })
    .first();
}

/** The input of a field, by the labels of its sections and its own label. */
function field(page: Page, sections: string[], label: string): Locator {
  const scope = sections.reduce<Page | Locator>((within, name) => section(page, within, name), page);
  return scope.getByLabel(new RegExp(`^${label}( \\(optional\\))?$`)).first();
}

/** Replace a field's text as an editor does (Decap re-renders the control on focus, so focus first). */
async function typeInto(input: Locator, text: string): Promise<void> {
  await input.focus();
  await input.fill(text);
}

/** Publish now. */
async function publish(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Publish" }).click();
  await page.getByText("Publish now").click();
}

/** The content the build reads from `text` (fails the test when the build would refuse it). */
function contentOf(text: string) {
  const result = loadContentFile(path.join(repo, CONTENT_FILE), text);
  if (!result.ok) throw new Error(`The build refuses the saved file:\n${JSON.stringify(result.errors, null, 2)}`);
  return result.content;
}

test("publishes a new home.title: the file has it, check-content passes, nothing else changes, and VS Code's schema mapping still applies", async ({
  page,
}) => {
  await openSiteEntry(page);
  const title = field(page, ["Home"], "Title");
  await typeInto(title, "Claim Your Funded Seat");
  mkdirSync(path.dirname(SCREENSHOT), { recursive: true });
  await page.screenshot({ path: SCREENSHOT });
  await publish(page);
  await expect.poll(savedText, { message: "the saved content file" }).toContain("  title: Claim Your Funded Seat\n");

  // Same words and links on every page: the content the pages are built from differs only in the title.
  const before = contentOf(ORIGINAL);
  expect(contentOf(savedText())).toEqual({ ...before, home: { ...before.home, title: "Claim Your Funded Seat" } });
  // Same layout: key order, blank lines, one-line text; the diff is the one edited line.
  expect(savedText()).toBe(ORIGINAL.replace(`  title: ${before.home.title}\n`, "  title: Claim Your Funded Seat\n"));

  const check = spawnSync(
    path.join(ROOT_DIR, "node_modules", ".bin", "tsx"),
    [path.join(ROOT_DIR, "scripts", "check-content.ts"), CONTENT_FILE],
    { cwd: repo, encoding: "utf8" },
  );
  expect([check.status, check.stdout.trim()]).toEqual([0, `${CONTENT_FILE} is valid`]);

  // VS Code finds the schema through .vscode/settings.json (by path), which no save touches.
  const mapping = (
    JSON.parse(readFileSync(path.join(repo, ".vscode", "settings.json"), "utf8")) as { "yaml.schemas": Record<string, string[]> }
  )["yaml.schemas"];
  const [schemaFile] = Object.entries(mapping).find(([, globs]) => globs.includes("content/site.yaml")) ?? [];
  const validate = new Ajv2020({ validateFormats: false, keywords: ["patternErrorMessage", "x-multiline", "x-developer-only"] }).compile(
    JSON.parse(readFileSync(path.join(repo, schemaFile as string), "utf8")),
  );
  expect([validate(parse(savedText())), validate.errors]).toEqual([true, null]);
});

test("a save of the sections holding the settings only developers set keeps them as the file has them", async ({ page }) => {
  await openSiteEntry(page);
  // Not in the form: no box of their sections is labelled as they are (the draw's page has an "ID" and a "Winners
  // label"; other sections, such as the transparency page's columns, may use the same words).
  for (const name of ["Launch", "Draw"]) {
    const developerOnly = section(page, page, name).getByLabel(
      /^(Product signup URL|Hash|Public key|Genesis|Cutoff|Round delay hours|Relay URL)$/,
    );
    await expect(developerOnly).toHaveCount(0);
  }
  await typeInto(field(page, ["Launch"], "Invitation days"), "8");
  await typeInto(field(page, ["Draw"], "Heading"), "The draw");
  await publish(page);
  await expect.poll(savedText, { message: "the saved content file" }).toContain("  heading: The draw\n");
  expect(savedText()).toBe(
    ORIGINAL.replace("  invitationDays: 7\n", "  invitationDays: 8\n").replace("  heading: The giveaway draw\n", "  heading: The draw\n"),
  );
});

test("refuses an emptied required field and a private key in the form, with the schema's messages, and writes nothing", async ({
  page,
}) => {
  await openSiteEntry(page);
  await typeInto(field(page, ["Home"], "Title"), "");
  await typeInto(field(page, ["Provider"], "Public API key"), "pk_live1234567890abcdefghij");
  await publish(page);

  await expect(section(page, page, "Home").getByText("Title is required.")).toBeVisible();
  await expect(section(page, page, "Provider").getByText(PUBLIC_API_KEY_MESSAGE)).toBeVisible();
  expect(saves).toEqual([]);
  expect(savedText()).toBe(ORIGINAL);
});

test("saves a cleared pixel id as none and a UTC launch moment as text, and the next save still works", async ({ page }) => {
  writeFileSync(path.join(repo, CONTENT_FILE), ORIGINAL.replace("  id: null\n", '  id: "123456789012345"\n'));
  await openSiteEntry(page);
  await typeInto(field(page, ["Ad pixel"], "ID"), "");
  await typeInto(field(page, ["Launch"], "Moment"), "2030-06-01T19:00:00Z");
  await publish(page);
  await expect.poll(savedText, { message: "the saved content file" }).toContain("  moment: 2030-06-01T19:00:00Z\n");

  const saved = contentOf(savedText());
  expect(saved.adPixel?.id).toBeUndefined();
  expect(saved.launch.moment).toBe("2030-06-01T19:00:00Z");

  // Reopened, the moment is still the text the editor typed (Decap's own YAML would show a date here and refuse every save).
  await page.reload();
  await expect(field(page, ["Home"], "Title")).toBeVisible();
  await expect(field(page, ["Launch"], "Moment")).toHaveValue("2030-06-01T19:00:00Z");
  await typeInto(field(page, ["Home"], "Title"), "Second Save");
  await publish(page);
  await expect.poll(savedText, { message: "the saved content file" }).toContain("  title: Second Save\n");
  expect(contentOf(savedText()).launch.moment).toBe("2030-06-01T19:00:00Z");
});
