/** The fixture's campaign page: its own copy over the site's, a signup that says where it came from, its sitemap entry. */
import type { Page } from "@playwright/test";
import { CONSENT_STORAGE_KEY } from "../../src/consent/pixel";
import { GIVEAWAY_DRAW_PATH, TRANSPARENCY_PATH } from "../../shared/routes";
import { UTM_OTHER } from "../../shared/validation";
import { expect, gotoHydrated, test, waitForHydration } from "./support/fixtures";
import { requestsFrom, setProviderMode } from "./support/provider-control";
import type { RecordedRequest } from "./support/provider-stand-in";
import { runEnv } from "./support/run-env";
import { FIXTURE, fixtureCampaign, legacyPixelContent } from "./support/fixture-content";
import { escapeRegExp, fillSignupForm, signupFields, submitButton } from "./support/signup-page";
import { toastTitled } from "./support/toasts";
import { uniqueVisitor, type Visitor } from "./support/visitors";

const SITE_URL = FIXTURE.site.url;
/** The fixture campaign page (__tests__/fixtures/campaigns/nba-ads.yaml merged over the fixture). */
const { pagePath: CAMPAIGN_PATH, content: CAMPAIGN } = fixtureCampaign();

/** Wait until the stand-in has one request from this visitor, and return it. */
async function requestFrom(visitor: Visitor): Promise<RecordedRequest> {
  const [request] = await requestsFrom(visitor, 1);
  return request;
}

/** What a Client API request said about where the signup came from. */
function attributionOf(request: RecordedRequest): { customSource: unknown; properties: unknown } {
  const doc = request.json as {
    data: { attributes: { custom_source?: unknown; profile: { data: { attributes: { properties?: unknown } } } } };
  };
  return { customSource: doc.data.attributes.custom_source, properties: doc.data.attributes.profile.data.attributes.properties };
}

/** Open `path` as a visitor who followed a link on `referrer`, and wait for hydration. */
async function openFrom(page: Page, path: string, referrer: string): Promise<void> {
  await page.goto(path, { referer: referrer });
  await waitForHydration(page);
}

/** The head tags a search engine or a chat app reads, as the page has them. */
async function expectHeadTags(
  page: Page,
  tags: { title: string; description: string | undefined; canonical: string; ogUrl: string },
): Promise<void> {
  await expect(page).toHaveTitle(tags.title);
  const description = page.locator('meta[name="description"]');
  if (tags.description === undefined) await expect(description).toHaveCount(0);
  else await expect(description).toHaveAttribute("content", tags.description);
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", tags.canonical);
  await expect(page.locator('meta[property="og:url"]')).toHaveAttribute("content", tags.ogUrl);
}

test.describe("a campaign page", () => {
  test("shows the campaign's heading and tagline, with the site's form, social link and countdown for what it leaves out", async ({
    page,
  }) => {
    await gotoHydrated(page, CAMPAIGN_PATH);
    await expect(page.getByRole("heading", { level: 1, name: CAMPAIGN.home.title })).toBeVisible();
    await expect(page.getByText(CAMPAIGN.home.tagline, { exact: true })).toBeVisible();
    await expect(page.getByRole("heading", { name: FIXTURE.home.title })).toHaveCount(0);
    const fields = signupFields(page, CAMPAIGN.home.form);
    for (const field of [fields.email, fields.firstName, fields.lastName]) await expect(field).toBeVisible();
    await expect(submitButton(page, CAMPAIGN.home.form)).toHaveText(CAMPAIGN.home.form.submit, { useInnerText: false });
    await expect(page.getByRole("link", { name: new RegExp(escapeRegExp(CAMPAIGN.links.social.label)) })).toBeVisible();
    await expect(page.getByRole("timer")).toBeVisible();
  });

  test("has its own title, description, canonical URL and Open Graph URL", async ({ page }) => {
    await gotoHydrated(page, CAMPAIGN_PATH);
    await expectHeadTags(page, {
      title: CAMPAIGN.home.pageTitle,
      description: CAMPAIGN.campaign.metaDescription,
      canonical: `${SITE_URL}${CAMPAIGN_PATH}`,
      ogUrl: `${SITE_URL}${CAMPAIGN_PATH}`,
    });
  });

  test("is prerendered with its copy, for visitors without JavaScript and for crawlers", async () => {
    const response = await fetch(`${runEnv().siteOrigin}${CAMPAIGN_PATH}`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain(CAMPAIGN.home.title);
    expect(html).toContain(`<link data-react-helmet="true" rel="canonical" href="${SITE_URL}${CAMPAIGN_PATH}"/>`);
  });

  test("confirms a signup with the campaign's toast and goes on to the shared /success/", async ({ page }) => {
    await gotoHydrated(page, CAMPAIGN_PATH);
    const visitor = uniqueVisitor("campaign-signup");
    await setProviderMode(visitor.email, "slow", 1_000);
    await fillSignupForm(page, visitor, CAMPAIGN.home.form);
    await submitButton(page, CAMPAIGN.home.form).click();
    await expect(toastTitled(page, CAMPAIGN.toasts.success.title)).toBeVisible();
    await expect(page).toHaveURL((url) => url.pathname === "/success/");
    await expect(page.getByRole("heading", { name: FIXTURE.success.heading })).toBeVisible();
    await requestFrom(visitor);
  });
});

test.describe("where a signup came from (Client API)", () => {
  test("a signup from /<slug>/?utm_…, linked from another site, carries the campaign's source, the UTM values, the landing page and the referring origin", async ({
    page,
  }) => {
    const query =
      "?utm_source=nba-preseason&utm_medium=paid-social&utm_campaign=launch_week.2&utm_term=picks&utm_content=video-a&fbclid=abc";
    await openFrom(page, `${CAMPAIGN_PATH}${query}`, "https://news.example/articles/42?reader=jordan");
    const visitor = uniqueVisitor("campaign-utm");
    await setProviderMode(visitor.email, "ok");
    await fillSignupForm(page, visitor, CAMPAIGN.home.form);
    await submitButton(page, CAMPAIGN.home.form).click();
    await expect(page).toHaveURL((url) => url.pathname === "/success/");

    expect(attributionOf(await requestFrom(visitor))).toEqual({
      customSource: CAMPAIGN.campaign.source,
      properties: {
        utm_source: "nba-preseason",
        utm_medium: "paid-social",
        utm_campaign: "launch_week.2",
        utm_term: "picks",
        utm_content: "video-a",
        landing_page: CAMPAIGN_PATH,
        referrer: "https://news.example",
      },
    });
  });

  test("a signup on / carries the site's provider.source and its landing page, and no empty UTM values", async ({ page }) => {
    await gotoHydrated(page, "/?utm_source=&utm_medium=%20");
    const visitor = uniqueVisitor("home-source");
    await setProviderMode(visitor.email, "ok");
    await fillSignupForm(page, visitor);
    await submitButton(page).click();
    await expect(page).toHaveURL((url) => url.pathname === "/success/");

    expect(attributionOf(await requestFrom(visitor))).toEqual({ customSource: FIXTURE.provider.source, properties: { landing_page: "/" } });
  });

  test(`hostile UTM values arrive as '${UTM_OTHER}', and nothing of them runs on the page`, async ({ page }) => {
    const long = `${"x".repeat(4_990)}<b>END</b>`;
    const markup = `<img src=x onerror="document.title='pwned'"><script>document.title='pwned'</script>`;
    await gotoHydrated(page, `${CAMPAIGN_PATH}?utm_source=${encodeURIComponent(long)}&utm_content=${encodeURIComponent(markup)}`);
    const dialogs: string[] = [];
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    const visitor = uniqueVisitor("campaign-hostile");
    await setProviderMode(visitor.email, "ok");
    await fillSignupForm(page, visitor, CAMPAIGN.home.form);
    await submitButton(page, CAMPAIGN.home.form).click();
    await expect(page).toHaveURL((url) => url.pathname === "/success/");

    const { properties } = attributionOf(await requestFrom(visitor));
    expect(properties).toEqual({ utm_source: UTM_OTHER, utm_content: UTM_OTHER, landing_page: CAMPAIGN_PATH });
    await expect(page).not.toHaveTitle("pwned");
    expect(dialogs).toEqual([]);
  });
});

test.describe("a campaign page on the legacy-form transport", () => {
  // The legacy-form build instead of this file's usual one.
  test.use({ site: "legacyPixel" });

  test("sends the original embed's payload exactly, with nothing of the attribution added", async ({ context, page }) => {
    await context.addInitScript((key) => window.localStorage.setItem(key, "declined"), CONSENT_STORAGE_KEY);
    await gotoHydrated(page, `${CAMPAIGN_PATH}?utm_source=nba-preseason&utm_medium=paid-social`);
    await expect(page.getByRole("heading", { level: 1, name: CAMPAIGN.home.title })).toBeVisible();
    const visitor = uniqueVisitor("campaign-legacy");
    await setProviderMode(visitor.email, "ok");
    await fillSignupForm(page, visitor, CAMPAIGN.home.form);
    await submitButton(page, CAMPAIGN.home.form).click();
    await expect(page).toHaveURL((url) => url.pathname === "/success/");

    const request = await requestFrom(visitor);
    expect(request.json).toBeNull();
    expect(request.fields).toEqual([
      ["g", legacyPixelContent().provider.listId],
      ["email", visitor.email],
      ["first_name", visitor.firstName],
      ["last_name", visitor.lastName],
    ]);
  });
});

test.describe("the site's own pages next to a campaign", () => {
  test("/ keeps the site's copy and head tags", async ({ page }) => {
    await gotoHydrated(page, "/");
    await expect(page.getByRole("heading", { level: 1, name: FIXTURE.home.title })).toBeVisible();
    await expect(page.getByRole("heading", { name: CAMPAIGN.home.title })).toHaveCount(0);
    await expectHeadTags(page, {
      title: FIXTURE.home.pageTitle,
      description: FIXTURE.site.metaDescription,
      canonical: `${SITE_URL}/`,
      ogUrl: `${SITE_URL}/`,
    });
  });
});

test.describe("the sitemap", () => {
  test("lists /, the giveaway draw, the campaign page and the transparency record, and neither /success/ nor the 404 page", async () => {
    const { siteOrigin } = runEnv();
    const index = await (await fetch(`${siteOrigin}/sitemap-index.xml`)).text();
    const sitemaps = [...index.matchAll(/<loc>([^<]+)<\/loc>/g)].map(([, loc]) => new URL(loc).pathname);
    const listed = (
      await Promise.all(
        sitemaps.map(async (file) => [...(await (await fetch(`${siteOrigin}${file}`)).text()).matchAll(/<loc>([^<]+)<\/loc>/g)]),
      )
    )
      .flat()
      .map(([, loc]) => loc);
    expect(listed).toEqual([
      `${SITE_URL}/`,
      `${SITE_URL}${GIVEAWAY_DRAW_PATH}`,
      `${SITE_URL}${CAMPAIGN_PATH}`,
      `${SITE_URL}${TRANSPARENCY_PATH}`,
    ]);
  });

  test("is named in robots.txt by its absolute address", async () => {
    const robots = await (await fetch(`${runEnv().siteOrigin}/robots.txt`)).text();
    expect(robots.split("\n")).toContain(`Sitemap: ${SITE_URL}/sitemap-index.xml`);
  });
});
