/**
 * A campaign page of the fixture build (__tests__/fixtures/campaigns/nba-ads.yaml at
 * /nba-ads/): its own copy and head tags, the site's copy for what it leaves out, a
 * signup that goes on to the shared /success/, and the sitemap listing it.
 */
import type { BrowserContext, Page } from "playwright-core";
import { newGuardedContext, openHydrated, useChromium } from "./support/browser";
import { eventually } from "./support/eventually";
import { providerRequests, setProviderMode } from "./support/provider-control";
import { runEnv } from "./support/run-env";
import { COPY, fillSignupForm, signupFields, submitButton } from "./support/signup-page";
import { toastTitled } from "./support/toasts";
import { uniqueVisitor } from "./support/visitors";

/** Fixture values (__tests__/fixtures/site.yaml and campaigns/nba-ads.yaml). */
const SITE_URL = "https://www.pickfund.example";
const CAMPAIGN = {
  path: "/nba-ads/",
  pageTitle: "Fixture NBA picks waitlist | PickFund",
  title: "Fixture campaign: get funded for your NBA picks",
  tagline: "Courtside odds, our bankroll. Join the NBA waitlist before launch.",
  description: "Fixture campaign: get funded for your NBA picks without risking your own bankroll.",
  successToast: "Fixture campaign confirmed",
};
const HOME = {
  pageTitle: "Secure Your Spot Before Launch | PickFund",
  title: "Fixture title: secure your spot",
  descriptionStart: "Join the PickFund waitlist before launch.",
  successToast: "Submission confirmed",
};

const browser = useChromium();
let context: BrowserContext;

beforeEach(async () => {
  ({ context } = await newGuardedContext(browser()));
});
afterEach(async () => {
  await context?.close();
});

/** The head tags a search engine or a chat app reads. */
async function headTags(page: Page) {
  return {
    title: await page.title(),
    description: await page.locator('meta[name="description"]').getAttribute("content"),
    canonical: await page.locator('link[rel="canonical"]').getAttribute("href"),
    ogUrl: await page.locator('meta[property="og:url"]').getAttribute("content"),
  };
}

describe("a campaign page", () => {
  it("shows the campaign's heading and tagline, with the site's form, social link and countdown for what it leaves out", async () => {
    const page = await openHydrated(context, CAMPAIGN.path);
    await page.getByRole("heading", { level: 1, name: CAMPAIGN.title }).waitFor();
    expect(await page.getByText(CAMPAIGN.tagline, { exact: true }).isVisible()).toBe(true);
    expect(await page.getByRole("heading", { name: HOME.title }).count()).toBe(0);
    const fields = signupFields(page);
    for (const field of [fields.email, fields.firstName, fields.lastName]) expect(await field.isVisible()).toBe(true);
    expect(await submitButton(page).textContent()).toBe(COPY.submit);
    expect(await page.getByRole("link", { name: /Follow @PickFund for funding announcements/ }).isVisible()).toBe(true);
    expect(await page.getByRole("timer").isVisible()).toBe(true);
  });

  it("has its own title, description, canonical URL and Open Graph URL", async () => {
    const page = await openHydrated(context, CAMPAIGN.path);
    expect(await headTags(page)).toEqual({
      title: CAMPAIGN.pageTitle,
      description: CAMPAIGN.description,
      canonical: `${SITE_URL}${CAMPAIGN.path}`,
      ogUrl: `${SITE_URL}${CAMPAIGN.path}`,
    });
  });

  it("is prerendered with its copy, for visitors without JavaScript and for crawlers", async () => {
    const response = await fetch(`${runEnv().siteOrigin}${CAMPAIGN.path}`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain(CAMPAIGN.title);
    expect(html).toContain(`<link data-react-helmet="true" rel="canonical" href="${SITE_URL}${CAMPAIGN.path}"/>`);
  });

  it("confirms a signup with the campaign's toast and goes on to the shared /success/", async () => {
    const page = await openHydrated(context, `${CAMPAIGN.path}?utm_source=nba-preseason&utm_medium=paid-social`);
    const visitor = uniqueVisitor("campaign-signup");
    await setProviderMode(visitor.email, "slow", 1_000);
    await fillSignupForm(page, visitor);
    await submitButton(page).click();
    await toastTitled(page, CAMPAIGN.successToast).waitFor();
    await page.waitForURL((url) => url.pathname === "/success/");
    await page.getByRole("heading", { name: "Welcome to the Team!" }).waitFor();
    const [request] = await eventually(async () => {
      const requests = await providerRequests(visitor.email);
      expect(requests).toHaveLength(1);
      return requests;
    });
    // The legacy form endpoint gets the spec's payload exactly: attribution is never added to it.
    expect(request.fields).toEqual([
      ["g", COPY.listId],
      ["email", visitor.email],
      ["first_name", visitor.firstName],
      ["last_name", visitor.lastName],
    ]);
  });
});

describe("the site's own pages next to a campaign", () => {
  it("/ keeps the site's copy and head tags", async () => {
    const page = await openHydrated(context, "/");
    await page.getByRole("heading", { level: 1, name: HOME.title }).waitFor();
    expect(await page.getByRole("heading", { name: CAMPAIGN.title }).count()).toBe(0);
    const tags = await headTags(page);
    expect(tags).toMatchObject({ title: HOME.pageTitle, canonical: `${SITE_URL}/`, ogUrl: `${SITE_URL}/` });
    expect(tags.description?.startsWith(HOME.descriptionStart)).toBe(true);
  });
});

describe("the sitemap", () => {
  it("lists / and the campaign page, and neither /success/ nor the 404 page", async () => {
    const { siteOrigin } = runEnv();
    const index = await (await fetch(`${siteOrigin}/sitemap-index.xml`)).text();
    const sitemaps = [...index.matchAll(/<loc>([^<]+)<\/loc>/g)].map(([, loc]) => new URL(loc).pathname);
    const listed = (
      await Promise.all(sitemaps.map(async (file) => [...(await (await fetch(`${siteOrigin}${file}`)).text()).matchAll(/<loc>([^<]+)<\/loc>/g)]))
    )
      .flat()
      .map(([, loc]) => loc);
    expect(listed).toEqual([`${SITE_URL}/`, `${SITE_URL}${CAMPAIGN.path}`]);
  });

  it("is named in robots.txt by its absolute address", async () => {
    const robots = await (await fetch(`${runEnv().siteOrigin}/robots.txt`)).text();
    expect(robots.split("\n")).toContain(`Sitemap: ${SITE_URL}/sitemap-index.xml`);
  });
});
