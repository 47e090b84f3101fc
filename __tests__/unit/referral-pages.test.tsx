/**
 * The referral program as a visitor meets it, rendered from the fixture content with the
 * program switched on: /success/ sending everyone to their inbox, the referral card on the status
 * page and the leaderboard, with the waitlist service's answers stubbed at fetch. And the signup
 * page keeping a friend's ?ref code for the visit.
 */
import { renderToString } from "react-dom/server";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import IndexPage from "../../src/pages/index";
import LeaderboardPage from "../../src/pages/leaderboard";
import StatusPage from "../../src/pages/status";
import SuccessPage from "../../src/pages/success";
import { REFERRAL_CODE_KEY } from "../../src/referrals/referralCode";
import { shareLinks } from "../../src/referrals/share";
import { wrapPageElement, wrapRootElement } from "../../src/app/wrappers";
import { loadTestContent, type TestSiteContent } from "../support/content";
import { renderPage, type TestPageProps } from "../support/render";

const fixture = loadTestContent();
/** The fixture with the referral program on (the pages read `referrals.enabled`; the transport rule is the schema's). */
const content: TestSiteContent = { ...fixture, referrals: { ...fixture.referrals, enabled: true } };
const { referrals, giveaway, status, leaderboard, links } = content;

const TOKEN = "Vb3kq9ZxT1mN8pL2rS6wYa";
const STANDING = {
  referralCode: "K7QM2XPD",
  referralUrl: "https://www.pickfund.example/?ref=K7QM2XPD",
  position: 1234,
  referrals: 2,
  entries: 3,
  statusUrl: `https://www.pickfund.example/status/#t=${TOKEN}`,
};
/** The headline as a visitor reads it: the content's words with the place in line written for `en`. */
const HEADLINE_TEXT = referrals.position.replace("{position}", "1,234");
/**
 * The headline as an accessible name: jsdom computes no CSS display, so the name computation
 * sees the number's own element as a block and puts spaces around it, where a browser does not.
 */
const HEADLINE = new RegExp(
  `^${referrals.position
    .split("{position}")
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join("\\s?1,234\\s?")}$`,
);

/** A page's HTML as the build prerenders it: the same providers and layout as renderPage, rendered on the server. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any page component, whatever its query type
function prerendered(Page: React.ComponentType<any>, pathname: string, siteContent: TestSiteContent): string {
  const props = { data: { siteContent }, location: { pathname }, path: pathname, pageContext: {}, params: {} } as TestPageProps;
  const Typed = Page as React.ComponentType<TestPageProps>;
  return renderToString(wrapRootElement({ element: wrapPageElement({ element: <Typed {...props} />, props: props as never }) }));
}

/** Text as React writes it into HTML. */
const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/'/g, "&#x27;").replace(/"/g, "&quot;");

/** fetch as the referral reads call it: (url, init). */
const fetchMock = jest.fn<Promise<unknown>, [string, RequestInit]>();
/** An answer as fetch gives it (jsdom has no Response). */
const answer = (statusCode: number, body: unknown) => ({
  status: statusCode,
  ok: statusCode < 300,
  text: () => Promise.resolve(JSON.stringify(body)),
});

beforeEach(() => {
  sessionStorage.clear();
  fetchMock.mockReset();
  global.fetch = fetchMock as unknown as typeof fetch;
});

afterEach(() => {
  delete window.fbq;
  delete (navigator as Partial<Navigator>).share;
  window.history.replaceState(null, "", "/");
});

describe("/success/ with the referral program on", () => {
  it("sends every visitor to their inbox for their place in line and link, in the content's words, and shows no standing", async () => {
    renderPage(SuccessPage, "/success/", content);
    const heading = await screen.findByRole("heading", { level: 2, name: referrals.checkInbox.heading });
    const card = heading.parentElement as HTMLElement;
    expect(within(card).getByText(referrals.checkInbox.text)).toBeInTheDocument();
    expect(within(card).getByRole("link", { name: referrals.leaderboardLink })).toHaveAttribute("href", "/leaderboard/");
    expect(within(card).getByRole("link", { name: `${giveaway.rulesLink} ${links.newTabHint}` })).toHaveAttribute(
      "href",
      giveaway.rulesUrl,
    );
    // Nothing of anyone's standing: no place, no link to copy, no status link, and nothing asked of the service.
    expect(screen.queryByRole("textbox")).not.toBeInTheDocument();
    expect(screen.queryByText(/#\s*—|1,234/)).not.toBeInTheDocument();
    expect(screen.queryAllByRole("link").filter((link) => link.getAttribute("href")?.includes("/status/"))).toEqual([]);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("keeps the welcome card, JOIN DISCORD and the one Lead event", async () => {
    const fbq = jest.fn();
    window.fbq = fbq;
    renderPage(SuccessPage, "/success/", content);
    await screen.findByRole("heading", { level: 2, name: referrals.checkInbox.heading });
    expect(screen.getByRole("heading", { level: 1, name: content.success.heading })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: new RegExp(content.success.button) })).toHaveAttribute("href", links.discordInviteUrl);
    expect(fbq.mock.calls).toEqual([["track", "Lead"]]);
  });

  it("says the same in the prerendered HTML, for visitors without JavaScript", () => {
    const html = prerendered(SuccessPage, "/success/", content);
    expect(html).toContain(`>${escapeHtml(referrals.checkInbox.heading)}</h2>`);
    expect(html).toContain(`>${escapeHtml(referrals.checkInbox.text)}</p>`);
    expect(html).not.toContain("<noscript>");
  });

  it("shows no inbox card while the program is off", () => {
    const { container } = renderPage(SuccessPage, "/success/", fixture);
    expect(screen.queryByRole("heading", { level: 2 })).not.toBeInTheDocument();
    expect(container).not.toHaveTextContent(referrals.checkInbox.text);
  });
});

/** The referral card on a person's status page, found by its headline. */
describe("the referral card on /status/", () => {
  beforeEach(() => window.history.replaceState(null, "", `/status/#t=${TOKEN}`));

  it("shows the place in line for the site's language, friends joined, entries, the link, share links and the rules", async () => {
    fetchMock.mockResolvedValue(answer(200, STANDING));
    renderPage(StatusPage, "/status/", content);
    const card = await screen.findByRole("region", { name: HEADLINE });
    expect(within(card).getByRole("heading", { level: 2, name: HEADLINE })).toHaveTextContent(HEADLINE_TEXT);
    expect(within(card).getByText(referrals.friendsJoined).parentElement).toHaveTextContent(`2${referrals.friendsJoined}`);
    expect(within(card).getByText(referrals.giveawayEntries).parentElement).toHaveTextContent(`3${referrals.giveawayEntries}`);
    expect(within(card).getByText(/moves you 10 places up and earns you 1 more giveaway entry/)).toBeInTheDocument();

    const field = within(card).getByRole("textbox", { name: referrals.linkLabel });
    expect(field).toHaveValue(STANDING.referralUrl);
    expect(field).toHaveAttribute("readonly");

    const networks = within(within(card).getByRole("list", { name: referrals.shareLinks.label })).getAllByRole("link");
    const expected = shareLinks(referrals.shareMessage, STANDING.referralUrl);
    expect(networks.map((link) => [link.textContent, link.getAttribute("href"), link.getAttribute("target")])).toEqual([
      [`${referrals.shareLinks.x} ${links.newTabHint}`, expected.x, "_blank"],
      [`${referrals.shareLinks.whatsapp} ${links.newTabHint}`, expected.whatsapp, "_blank"],
      [`${referrals.shareLinks.telegram} ${links.newTabHint}`, expected.telegram, "_blank"],
      [`${referrals.shareLinks.facebook} ${links.newTabHint}`, expected.facebook, "_blank"],
      [`${referrals.shareLinks.reddit} ${links.newTabHint}`, expected.reddit, "_blank"],
    ]);
    expect(within(card).getByRole("link", { name: referrals.leaderboardLink })).toHaveAttribute("href", "/leaderboard/");
    const rules = within(card).getByRole("link", { name: `${giveaway.rulesLink} ${links.newTabHint}` });
    expect(rules).toHaveAttribute("href", giveaway.rulesUrl);
    expect(rules).toHaveAttribute("target", "_blank");
    expect(within(card).getByText(new RegExp(`^${giveaway.noPurchaseNecessary}`))).toBeInTheDocument();
  });

  it("copies the link to the clipboard with the copy button, and says Copied", async () => {
    fetchMock.mockResolvedValue(answer(200, STANDING));
    const user = userEvent.setup();
    renderPage(StatusPage, "/status/", content);
    const card = await screen.findByRole("region", { name: HEADLINE });
    await user.click(within(card).getByRole("button", { name: referrals.copyButton }));
    await expect(navigator.clipboard.readText()).resolves.toBe(STANDING.referralUrl);
    expect(within(card).getByRole("button", { name: referrals.copied })).toBeInTheDocument();
    expect(within(card).getByRole("status")).toHaveTextContent(referrals.copied);
  });

  it("selects the link and says how to copy it when the browser will not copy", async () => {
    fetchMock.mockResolvedValue(answer(200, STANDING));
    const user = userEvent.setup();
    jest.spyOn(navigator.clipboard, "writeText").mockRejectedValue(new DOMException("denied", "NotAllowedError"));
    renderPage(StatusPage, "/status/", content);
    const card = await screen.findByRole("region", { name: HEADLINE });
    await user.click(within(card).getByRole("button", { name: referrals.copyButton }));
    const field = within(card).getByRole("textbox", { name: referrals.linkLabel });
    expect(field).toHaveFocus();
    expect([(field as HTMLInputElement).selectionStart, (field as HTMLInputElement).selectionEnd]).toEqual([
      0,
      STANDING.referralUrl.length,
    ]);
    expect(await screen.findByText(referrals.copyManually)).toBeInTheDocument();
    expect(within(card).queryByRole("button", { name: referrals.copied })).not.toBeInTheDocument();
  });

  it("offers the browser's share menu only where it has one, with the link and the message", async () => {
    fetchMock.mockResolvedValue(answer(200, STANDING));
    const first = renderPage(StatusPage, "/status/", content);
    await screen.findByRole("region", { name: HEADLINE });
    expect(screen.queryByRole("button", { name: referrals.shareButton })).not.toBeInTheDocument();
    first.unmount();

    const share = jest.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, "share", { value: share, configurable: true });
    const user = userEvent.setup();
    renderPage(StatusPage, "/status/", content);
    await user.click(await screen.findByRole("button", { name: referrals.shareButton }));
    expect(share).toHaveBeenCalledWith({
      text: referrals.shareMessage.replace("{link}", "").trim(),
      url: STANDING.referralUrl,
    });
  });

  it("has every heading and word in the prerendered HTML, dashes in the numbers' places, and the e-mail hint for visitors without JavaScript", () => {
    fetchMock.mockResolvedValue(answer(200, STANDING));
    const html = prerendered(StatusPage, "/status/", content);
    const [before, after] = referrals.position.split("{position}");
    // The number sign goes with the number, onto its own line.
    expect(html).toMatch(
      new RegExp(`>${escapeHtml(before.replace(/#$/, ""))}<span class="[^"]+">#<!-- -->—</span>${escapeHtml(after)}</h2>`),
    );
    for (const words of [
      referrals.friendsJoined,
      referrals.giveawayEntries,
      referrals.linkLabel,
      referrals.copyButton,
      referrals.shareLinks.x,
    ]) {
      expect(html).toContain(`>${escapeHtml(words)}<`);
    }
    expect(html).toMatch(new RegExp(`<noscript><p class="[^"]+">${escapeHtml(status.noScript)}</p>`));
    // The standing is the service's answer to the browser: the HTML never carries anyone's.
    expect(html).not.toContain(STANDING.referralUrl);
  });
});

describe("/status/", () => {
  beforeEach(() => window.history.replaceState(null, "", `/status/#t=${TOKEN}`));

  it("reads the standing with the token as a bearer token, never in the address, and shows it", async () => {
    fetchMock.mockResolvedValue(answer(200, STANDING));
    renderPage(StatusPage, "/status/", content);
    expect(screen.getByRole("heading", { level: 1, name: status.heading })).toBeInTheDocument();
    const card = await screen.findByRole("region", { name: HEADLINE });
    expect(within(card).getByText(referrals.giveawayEntries).parentElement).toHaveTextContent(`3${referrals.giveawayEntries}`);
    expect(within(card).getByRole("textbox", { name: referrals.linkLabel })).toHaveValue(STANDING.referralUrl);
    // The page links to no status page, its own included.
    expect(
      within(card)
        .queryAllByRole("link")
        .filter((link) => link.getAttribute("href")?.includes("/status/")),
    ).toEqual([]);
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe("/api/status");
    expect(init.headers).toMatchObject({ authorization: `Bearer ${TOKEN}` });
  });

  it("says the link is not known when the service refuses the token, without asking again", async () => {
    fetchMock.mockResolvedValue(answer(401, { errors: [{ status: "401" }] }));
    renderPage(StatusPage, "/status/", content);
    expect(await screen.findByText(status.unknownToken)).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it("asks for the e-mail's link when the address carries no token, and asks the service nothing", async () => {
    window.history.replaceState(null, "", "/status/");
    renderPage(StatusPage, "/status/", content);
    expect(await screen.findByText(status.missingToken)).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("says the standing cannot be loaded right now when the service keeps failing", async () => {
    fetchMock.mockResolvedValue(answer(503, { errors: [{ status: "503", code: "unavailable" }] }));
    renderPage(StatusPage, "/status/", content);
    expect(await screen.findByText(status.unavailable, undefined, { timeout: 8_000 })).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledTimes(3);
  }, 10_000);
});

describe("/leaderboard/", () => {
  const ENTRIES = [
    { rank: 1, name: "Jordan S.", referrals: 1234 },
    { rank: 2, name: "Alex P.", referrals: 7 },
  ];

  it("shows the heading and intro, then the top referrers with masked names and counts for the site's language", async () => {
    fetchMock.mockResolvedValue(answer(200, { entries: ENTRIES }));
    renderPage(LeaderboardPage, "/leaderboard/", content);
    expect(screen.getByRole("heading", { level: 1, name: leaderboard.heading })).toBeInTheDocument();
    expect(screen.getByText(leaderboard.intro)).toBeInTheDocument();
    const table = screen.getByRole("table", { name: leaderboard.heading });
    await waitFor(() => expect(table).toHaveAttribute("aria-busy", "false"));
    const rows = within(table)
      .getAllByRole("row")
      .map((row) => [...row.querySelectorAll("th, td")].map((cell) => cell.textContent));
    expect(rows).toEqual([
      [leaderboard.columns.rank, leaderboard.columns.name, leaderboard.columns.referrals],
      ["1", "Jordan S.", "1,234"],
      ["2", "Alex P.", "7"],
    ]);
    expect(fetchMock.mock.calls[0][0]).toBe("/api/leaderboard");
    expect(screen.getByRole("link", { name: leaderboard.joinLink })).toHaveAttribute("href", "/");
    expect(screen.getByRole("link", { name: `${giveaway.rulesLink} ${links.newTabHint}` })).toHaveAttribute("href", giveaway.rulesUrl);
  });

  it("keeps a row's room for each of the top N before the board arrives, and after, however few it has", async () => {
    let resolve: (value: unknown) => void = () => undefined;
    fetchMock.mockReturnValue(new Promise((done) => (resolve = done)));
    const { container } = renderPage(LeaderboardPage, "/leaderboard/", content);
    const table = screen.getByRole("table", { name: leaderboard.heading });
    expect(table).toHaveAttribute("aria-busy", "true");
    expect(within(table).getAllByRole("row")).toHaveLength(1 + leaderboard.size);
    resolve(answer(200, { entries: ENTRIES }));
    await waitFor(() => expect(within(table).getAllByRole("row")).toHaveLength(1 + ENTRIES.length));
    expect(container.querySelectorAll("tbody tr")).toHaveLength(leaderboard.size);
  });

  it("has the heading, intro, column headings and N rows of dashes in the prerendered HTML, and a hint for visitors without JavaScript", () => {
    const html = prerendered(LeaderboardPage, "/leaderboard/", content);
    expect(html).toContain(`>${escapeHtml(leaderboard.heading)}</h1>`);
    expect(html).toContain(`>${escapeHtml(leaderboard.intro)}</p>`);
    expect(html).toContain(`>${escapeHtml(leaderboard.columns.referrals)}</th>`);
    expect(html.match(/<tr><td class="[^"]+">—<\/td><th scope="row" class="[^"]+">—<\/th><td class="[^"]+">—<\/td><\/tr>/g)).toHaveLength(
      leaderboard.size,
    );
    expect(html).toMatch(new RegExp(`<noscript><p class="[^"]+">${escapeHtml(leaderboard.noScript)}</p>`));
  });

  it("says nobody is on the board yet when it is empty", async () => {
    fetchMock.mockResolvedValue(answer(200, { entries: [] }));
    renderPage(LeaderboardPage, "/leaderboard/", content);
    expect(await screen.findByRole("status")).toHaveTextContent(leaderboard.empty);
  });

  it("says the board cannot be loaded right now when the service keeps failing", async () => {
    fetchMock.mockRejectedValue(new TypeError("Failed to fetch"));
    renderPage(LeaderboardPage, "/leaderboard/", content);
    expect(await screen.findByText(leaderboard.unavailable, undefined, { timeout: 8_000 })).toBeInTheDocument();
  }, 10_000);
});

describe("the signup page with the referral program on", () => {
  it("keeps a friend's ?ref code for the visit, so that reading on first loses nothing", () => {
    window.history.replaceState(null, "", "/?ref=K7QM2XPD");
    const { unmount } = renderPage(IndexPage, "/", content);
    unmount();
    window.history.replaceState(null, "", "/");
    renderPage(IndexPage, "/", content);
    expect(sessionStorage.getItem(REFERRAL_CODE_KEY)).toBe("K7QM2XPD");
    expect(document.cookie).toBe("");
  });

  it("keeps nothing while the program is off", () => {
    window.history.replaceState(null, "", "/?ref=K7QM2XPD");
    renderPage(IndexPage, "/", fixture);
    expect(sessionStorage.getItem(REFERRAL_CODE_KEY)).toBeNull();
  });
});

describe("/status/ on launch day", () => {
  beforeEach(() => window.history.replaceState(null, "", `/status/#t=${TOKEN}`));
  const EXPIRES_AT = "2030-06-08T19:00:00.000Z";
  const INVITE_URL = "https://www.pickfund.example/invite/?invite=Qx7Lm2Pv9Rt4Wy8Zb3Nc6Hd1Jf5Kg0Sa7Ue2Io4Tp9w";
  const dateOf = (iso: string) =>
    new Intl.DateTimeFormat(content.site.language, { dateStyle: "long", timeStyle: "short" }).format(new Date(iso));
  const invited = (invitation: unknown) => answer(200, { ...STANDING, position: null, leaderboardShown: false, invitation });

  it("shows an invited person the date to accept by and the button to accept, in place of their place in line", async () => {
    fetchMock.mockResolvedValue(invited({ state: "invited", expiresAt: EXPIRES_AT, inviteUrl: INVITE_URL }));
    renderPage(StatusPage, "/status/", content);
    expect(await screen.findByText(status.invitation.invited.replace("{date}", dateOf(EXPIRES_AT)))).toBeInTheDocument();
    expect(screen.getByRole("link", { name: status.invitation.accept })).toHaveAttribute("href", INVITE_URL);
    expect(screen.queryByRole("region", { name: HEADLINE })).not.toBeInTheDocument();
    // A screen reader is not told the page is still looking up a place the person no longer has.
    expect(screen.queryByText(status.loading)).not.toBeInTheDocument();
  });

  it.each([
    ["accepted", () => status.invitation.joined],
    ["expired", () => status.invitation.expired.replace("{date}", dateOf(EXPIRES_AT))],
    ["revoked", () => status.invitation.revoked],
  ])("says so once the invitation is %s, with no button", async (state, words) => {
    fetchMock.mockResolvedValue(invited({ state, expiresAt: EXPIRES_AT, inviteUrl: null }));
    renderPage(StatusPage, "/status/", content);
    expect(await screen.findByText(words())).toBeInTheDocument();
    expect(screen.queryByRole("link", { name: status.invitation.accept })).not.toBeInTheDocument();
    expect(screen.queryByText(status.loading)).not.toBeInTheDocument();
  });

  it("never puts a link of another kind in the button: an invitation without a web address is no invitation", async () => {
    fetchMock.mockResolvedValue(invited({ state: "invited", expiresAt: EXPIRES_AT, inviteUrl: "javascript:alert(1)" }));
    renderPage(StatusPage, "/status/", content);
    expect(await screen.findByText(status.unavailable, undefined, { timeout: 8_000 })).toBeInTheDocument();
    expect(screen.queryByRole("link", { name: status.invitation.accept })).not.toBeInTheDocument();
  }, 10_000);
});
