/**
 * The operator's console as an operator meets it, rendered from the fixture content with the console's API stubbed at
 * fetch: the page's shell and its state without the API, the session and its banner, the dashboard (its chart's table
 * holds the answer's numbers), the search, a person's page, the review queue, the audit log, and the actions through
 * the reason dialog (nothing is posted without a reason; an erase asks to confirm). Errors are the content's words.
 */
import { renderToString } from "react-dom/server";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import ConsolePage from "../../src/pages/console";
import { wrapPageElement, wrapRootElement } from "../../src/app/wrappers";
import {
  CONSOLE_AUDIT_ENDPOINT,
  CONSOLE_DASHBOARD_ENDPOINT,
  CONSOLE_PEOPLE_ENDPOINT,
  CONSOLE_REVIEW_ENDPOINT,
  CONSOLE_SESSION_ENDPOINT,
  REASON_MAX_LENGTH,
  personActionEndpoint,
  personEndpoint,
  personExportEndpoint,
} from "../../shared/console";
import { reasonProblem } from "../../shared/console-reason";
import { COMMIT_REFUSAL, DRAW_COMMIT_ENDPOINT, DRAW_RUN_ENDPOINT, DRAW_STATE_ENDPOINT, RUN_REFUSAL } from "../../shared/giveaway/commit";
import type { Commitment, DrawState } from "../../shared/api/draw";
import { FLAGS, HOLDS } from "../../shared/fair-play-marks";
import { CONSENT_STORAGE_KEY, META_PIXEL_SCRIPT_URL } from "../../src/consent/pixel";
import { consoleFormat } from "../../src/console/format";
import { loadTestContent } from "../support/content";
import { renderPage, type TestPageProps } from "../support/render";
import type { AuditAnswer, DashboardAnswer, PersonAnswer, PersonSummary, ReviewAnswer } from "../../shared/api/console";
import type { Invitation, LaunchAnswer, LaunchPreview, LaunchSchedule } from "../../shared/api/launch";
import {
  batchActionEndpoint,
  LAUNCH_AUDIT_ACTIONS,
  LAUNCH_BATCHES_ENDPOINT,
  LAUNCH_ENDPOINT,
  LAUNCH_PREVIEW_ENDPOINT,
  LAUNCH_SCHEDULE_ENDPOINT,
  personInvitationEndpoint,
  personInviteEndpoint,
  personResendEndpoint,
} from "../../shared/launch";

const content = loadTestContent();
const copy = content.console;

/** fetch as the console calls it: (url, init). */
const fetchMock = jest.fn<Promise<unknown>, [string, RequestInit]>();
/** An answer as fetch gives it (jsdom has no Response). */
const answer = (statusCode: number, body: unknown) => ({
  status: statusCode,
  ok: statusCode >= 200 && statusCode < 300,
  text: () => Promise.resolve(body === undefined ? "<html>Not found</html>" : JSON.stringify(body)),
});
/** A JSON:API error document whose `detail` a page must never show. */
const SERVER_DETAIL = "Server detail an operator must never read";
const errorAnswer = (statusCode: number, code: string) =>
  answer(statusCode, { errors: [{ status: String(statusCode), code, detail: SERVER_DETAIL }] });

type Handler = (url: URL, init: RequestInit) => ReturnType<typeof answer>;
/** The stubbed API: a handler per path (query left out); anything else is the static host's 404 page. */
let routes: Record<string, Handler> = {};

beforeEach(() => {
  window.location.hash = "";
  fetchMock.mockReset();
  fetchMock.mockImplementation((input, init) => {
    const url = new URL(input, "http://localhost");
    const handler = routes[url.pathname];
    // A person's page asks for their invitation too: none, unless a test says otherwise.
    if (!handler && url.pathname.endsWith("/invitation")) return Promise.resolve(answer(200, { invitation: null }));
    return Promise.resolve(handler ? handler(url, init) : answer(404, undefined));
  });
  global.fetch = fetchMock as unknown as typeof fetch;
  // jsdom draws nothing on a canvas; the table under the chart carries its numbers.
  HTMLCanvasElement.prototype.getContext = (() => null) as typeof HTMLCanvasElement.prototype.getContext;
  routes = { [CONSOLE_SESSION_ENDPOINT]: () => answer(200, { operator: "ops@pickfund.example", local: false, role: "operator" }) };
});

/** The requests the page sent, as `METHOD path?query`. */
const requests = () => fetchMock.mock.calls.map(([input, init]) => `${init?.method ?? "GET"} ${input}`);

const PERSON: PersonAnswer = {
  id: "p-ann",
  email: "ann.lee@example.test",
  firstName: "Ann",
  lastName: "Lee",
  referralCode: "K7QM2XPD",
  createdAt: "2030-01-02T10:00:00.000Z",
  confirmedAt: "2030-01-02T11:00:00.000Z",
  disqualifiedAt: null,
  flags: [FLAGS.burst],
  referralHold: HOLDS.codeLimit,
  source: "PickFund waitlist",
  properties: { utm_source: "newsletter", utm_campaign: "spring" },
  delivery: { state: "refused", attempts: 3, error: "Klaviyo refused the address", deliveredAt: null },
  position: 1234,
  referrals: 2,
  entries: 3,
  reviewedAt: null,
  referredBy: { id: "p-bob", referralCode: "B0BB0B00" },
  referred: [
    {
      id: "p-cy",
      email: "cy@example.test",
      firstName: "Cy",
      lastName: "Dee",
      referralCode: "CYCYCYCY",
      createdAt: "2030-01-03T09:00:00.000Z",
      confirmedAt: null,
      disqualifiedAt: null,
      flags: [FLAGS.sameIpAsReferrer],
      referralHold: null,
      counted: false,
    },
  ],
  referredTotal: 7,
  audit: [
    {
      id: 9,
      at: "2030-01-04T08:00:00.000Z",
      operator: "ops@pickfund.example",
      action: "approve",
      personId: "p-ann",
      reason: "Looked fine",
      before: { reviewed_at: null },
      after: { reviewed_at: "2030-01-04T08:00:00.000Z" },
    },
  ],
};

const summary = (id: string, firstName: string, flags: string[]): PersonSummary => ({
  id,
  email: `${firstName.toLowerCase()}@example.test`,
  firstName,
  lastName: "Flagged",
  referralCode: `${firstName.toUpperCase().padEnd(8, "X")}`,
  createdAt: "2030-01-01T12:00:00.000Z",
  confirmedAt: null,
  disqualifiedAt: null,
  flags,
  referralHold: null,
});

const DASHBOARD: DashboardAnswer = {
  range: "7d",
  timeZone: "Etc/GMT+8",
  days: [
    { date: "2030-01-01", signups: { "PickFund waitlist": 3, "nba-ads": 2 } },
    { date: "2030-01-02", signups: { "nba-ads": 5 } },
    { date: "2030-01-03", signups: {} },
  ],
  sources: [
    { key: "PickFund waitlist", path: "/" },
    { key: "nba-ads", path: "/nba-ads/" },
  ],
  utmSources: [{ value: "newsletter", signups: 4 }],
  utmCampaigns: [],
  utmSourcesOther: 3,
  utmCampaignsOther: 0,
  funnel: { signedUp: 10, confirmed: 8, referred: 4, referralCounted: 2, viralCoefficient: 0.2, invited: 6, accepted: 3 },
  delivery: {
    pending: 1,
    delivered: 6,
    refused: 2,
    demo: 1,
    oldestPendingAt: "2030-01-03T09:00:00.000Z",
    deadLettered: 2,
    erasuresRefused: 1,
    erasuresOverdue: 0,
  },
  topReferrers: [
    {
      id: "p-ann",
      firstName: "Ann",
      lastName: "Lee",
      referralCode: "K7QM2XPD",
      referrals: 2,
      flags: [FLAGS.domainCluster],
      disqualified: false,
    },
  ],
};

/** A table row's cells' text, headers included. */
const cellsOf = (row: HTMLElement) => Array.from(row.querySelectorAll("th, td"), (cell) => cell.textContent);

/** The console page, rendered as Gatsby would, with the app's chunk loaded. */
async function openConsole(hash = "") {
  window.location.hash = hash;
  renderPage(ConsolePage, "/console/", content);
  await screen.findByRole("heading", { level: 1, name: copy.heading });
}

describe("the page's shell", () => {
  it("prerenders the heading, the loading words and the message for a browser without JavaScript, and no app", () => {
    const props = {
      data: { siteContent: content },
      location: { pathname: "/console/" },
      path: "/console/",
      pageContext: {},
      params: {},
    } as TestPageProps;
    const Page = ConsolePage as unknown as React.ComponentType<TestPageProps>;
    const html = renderToString(wrapRootElement({ element: wrapPageElement({ element: <Page {...props} />, props: props as never }) }));
    expect(html).toContain(copy.heading);
    expect(html).toContain(`<noscript><p>${copy.noScript}</p></noscript>`);
    expect(html).toContain(copy.loading);
    expect(html).not.toContain(copy.navigation.dashboard);
  });

  it("without the console's API (a static host's 404 page) shows the content's words and a retry, and asks nothing else", async () => {
    routes = {};
    await openConsole();
    expect(await screen.findByRole("alert")).toHaveTextContent(copy.errors.unavailable);
    expect(screen.getByRole("button", { name: copy.retry })).toBeVisible();
    expect(requests()).toEqual([`GET ${CONSOLE_SESSION_ENDPOINT}`]);
  });

  it.each([
    [401, "access_token_missing", copy.errors.accessTokenMissing],
    [401, "access_token_invalid", copy.errors.accessTokenInvalid],
    [403, "access_denied", copy.errors.accessDenied],
    [503, "not_configured", copy.errors.notConfigured],
    [500, "internal_error", copy.errors.unavailable],
  ])("a session refused with %i %s shows the content's message, never the server's text", async (statusCode, code, message) => {
    routes = { [CONSOLE_SESSION_ENDPOINT]: () => errorAnswer(statusCode, code) };
    await openConsole();
    expect(await screen.findByRole("alert")).toHaveTextContent(message);
    expect(document.body).not.toHaveTextContent(SERVER_DETAIL);
  });

  it("never asks about or loads the ad pixel, even on a site with one and a visitor who accepted it", async () => {
    window.localStorage.setItem(CONSENT_STORAGE_KEY, "accepted");
    try {
      window.location.hash = "";
      renderPage(ConsolePage, "/console/", { ...content, adPixel: { id: "123456789012345" } });
      await screen.findByRole("navigation", { name: copy.navigation.label });
      expect(screen.queryByRole("region", { name: content.consent.message })).toBeNull();
      expect([...document.querySelectorAll("script")].filter((script) => script.src === META_PIXEL_SCRIPT_URL)).toEqual([]);
      expect(window.fbq).toBeUndefined();
    } finally {
      window.localStorage.clear();
    }
  });

  it("says who is signed in, and shows the local-operator banner on a local run only", async () => {
    routes[CONSOLE_DASHBOARD_ENDPOINT] = () => answer(200, DASHBOARD);
    await openConsole();
    expect(await screen.findByText(copy.signedInAs.replace("{operator}", "ops@pickfund.example"))).toBeVisible();
    expect(screen.queryByRole("note")).toBeNull();
  });

  it("shows the local-operator banner when the session is local", async () => {
    routes[CONSOLE_SESSION_ENDPOINT] = () => answer(200, { operator: "local-operator", local: true, role: "operator" });
    routes[CONSOLE_DASHBOARD_ENDPOINT] = () => answer(200, DASHBOARD);
    await openConsole();
    expect(await screen.findByRole("note")).toHaveTextContent(copy.localOperator.replace("{operator}", "local-operator"));
  });
});

describe("the dashboard", () => {
  beforeEach(() => {
    routes[CONSOLE_DASHBOARD_ENDPOINT] = (url) => answer(200, { ...DASHBOARD, range: url.searchParams.get("range") });
  });

  it("shows signups per day by source in a table whose numbers are the answer's, beside the labelled chart", async () => {
    await openConsole();
    const table = await screen.findByRole("table", { name: copy.dashboard.signups.caption });
    expect(screen.getByRole("img", { name: copy.dashboard.signups.chartLabel })).toBeInTheDocument();
    const rows = within(table)
      .getAllByRole("row")
      .map((row) => cellsOf(row));
    expect(rows).toEqual([
      [copy.dashboard.signups.dayColumn, "/", "/nba-ads/", copy.dashboard.signups.totalColumn],
      ["Jan 1", "3", "2", "5"],
      ["Jan 2", "0", "5", "5"],
      ["Jan 3", "0", "0", "0"],
    ]);
    expect(screen.getByText(copy.dashboard.daysIn.replace("{timeZone}", "GMT-08:00"))).toBeVisible();
    expect(requests()).toContain(`GET ${CONSOLE_DASHBOARD_ENDPOINT}?range=7d`);
  });

  it("asks for the range the operator picks", async () => {
    await openConsole();
    await screen.findByRole("table", { name: copy.dashboard.signups.caption });
    await userEvent.click(screen.getByRole("button", { name: copy.ranges.last30Days }));
    await waitFor(() => expect(requests()).toContain(`GET ${CONSOLE_DASHBOARD_ENDPOINT}?range=30d`));
    expect(screen.getByRole("button", { name: copy.ranges.last30Days })).toHaveAttribute("aria-pressed", "true");
    await userEvent.click(screen.getByRole("button", { name: copy.ranges.all }));
    await waitFor(() => expect(requests()).toContain(`GET ${CONSOLE_DASHBOARD_ENDPOINT}?range=all`));
  });

  it("shows the funnel with each step's share, the viral coefficient, delivery health and the top referrers' flags in the content's words", async () => {
    await openConsole();
    const funnel = await screen.findByRole("table", { name: copy.dashboard.funnel.caption });
    const funnelRows = within(funnel)
      .getAllByRole("row")
      .slice(1)
      .map((row) => cellsOf(row));
    expect(funnelRows).toEqual([
      [copy.dashboard.funnel.signedUp, "10", ""],
      [copy.dashboard.funnel.confirmed, "8", "80%"],
      [copy.dashboard.funnel.referred, "4", "50%"],
      [copy.dashboard.funnel.referralCounted, "2", "50%"],
      [copy.dashboard.funnel.invited, "6", "75%"],
      [copy.dashboard.funnel.accepted, "3", "50%"],
    ]);
    expect(screen.getByText(copy.dashboard.funnel.viralCoefficient).nextElementSibling).toHaveTextContent("0.20");
    const delivery = screen.getByRole("table", { name: copy.dashboard.delivery.caption });
    expect(within(delivery).getByRole("rowheader", { name: copy.deliveryStates.refused }).nextElementSibling).toHaveTextContent("2");
    expect(screen.getByText(copy.dashboard.delivery.deadLettered).nextElementSibling).toHaveTextContent("2");
    const utmSources = screen.getByRole("table", { name: copy.dashboard.utm.sourcesCaption });
    expect(within(utmSources).getAllByRole("row").slice(1).map(cellsOf)).toEqual([
      ["newsletter", "4"],
      [copy.dashboard.utm.otherValues, "3"],
    ]);
    expect(screen.getByText(`${copy.dashboard.utm.campaignsCaption}: ${copy.dashboard.utm.empty}`)).toBeVisible();
    const referrers = screen.getByRole("table", { name: copy.dashboard.topReferrers.caption });
    expect(within(referrers).getByText(copy.flags.domainCluster.name)).toBeVisible();
    expect(within(referrers).getByText(copy.flags.domainCluster.explanation)).toBeVisible();
    expect(within(referrers).getByRole("link", { name: "Ann Lee" })).toHaveAttribute("href", "#person/p-ann");
  });

  it("shows an error by its code in the content's words, and asks again on retry", async () => {
    routes[CONSOLE_DASHBOARD_ENDPOINT] = () => errorAnswer(400, "parameter_invalid");
    await openConsole();
    expect(await screen.findByRole("alert")).toHaveTextContent(copy.errors.parameterInvalid);
    expect(document.body).not.toHaveTextContent(SERVER_DETAIL);
    routes[CONSOLE_DASHBOARD_ENDPOINT] = () => answer(200, DASHBOARD);
    await userEvent.click(screen.getByRole("button", { name: copy.retry }));
    expect(await screen.findByRole("table", { name: copy.dashboard.signups.caption })).toBeVisible();
  });
});

/** The draw's rules as GET /api/console/draw answers them. */
const DRAW_RULES: DrawState["rules"] = {
  draw: "launch",
  cutoff: "2026-01-01T07:00:00.000Z",
  winners: 3,
  roundDelayHours: 24,
  round: 26500000,
  roundAt: "2026-01-02T07:00:01.000Z",
};

describe("the search and a person's page", () => {
  beforeEach(() => {
    routes[CONSOLE_PEOPLE_ENDPOINT] = (url) =>
      answer(200, { people: url.searchParams.get("q") === "Ann.Lee+x@Example.test" ? [PERSON] : [] });
    routes[personEndpoint(PERSON.id)] = () => answer(200, PERSON);
  });

  it("offers a viewer the person's page, the draw and the launch without an action, an export, an invitation or a commitment, and says why", async () => {
    routes[CONSOLE_SESSION_ENDPOINT] = () => answer(200, { operator: "viewer@pickfund.example", local: false, role: "viewer" });
    routes[DRAW_STATE_ENDPOINT] = () => answer(200, { rules: DRAW_RULES, job: null });
    routes[LAUNCH_ENDPOINT] = () =>
      answer(200, {
        funnel: { waiting: 10, invited: 0, accepted: 0, expired: 0, revoked: 0 },
        batches: [],
        days: [],
        timeZone: "UTC",
        schedule: null,
      });
    await openConsole(`#person/${PERSON.id}`);
    expect(await screen.findByRole("heading", { level: 2, name: "Ann Lee" })).toBeVisible();
    expect(screen.getByRole("note")).toHaveTextContent(copy.viewerNote);
    for (const name of [
      copy.actions.disqualify,
      copy.actions.erase,
      copy.actions.export,
      copy.launch.personInvite,
      copy.launch.personRevoke,
    ])
      expect(screen.queryByRole("button", { name })).toBeNull();
    window.location.hash = "#draw";
    expect(await screen.findByText((text) => text.includes("26,500,000"))).toBeVisible();
    expect(screen.queryByRole("checkbox", { name: copy.draw.confirm })).toBeNull();
    expect(screen.queryByRole("button", { name: copy.draw.submit })).toBeNull();
    window.location.hash = "#launch";
    expect(await screen.findByRole("table", { name: copy.launch.funnelCaption })).toBeVisible();
    expect(screen.queryByRole("button", { name: copy.launch.previewButton })).toBeNull();
    expect(screen.queryByRole("button", { name: copy.launch.schedule.save })).toBeNull();
    expect(requests().filter((request) => request.startsWith("POST"))).toEqual([]);
  });

  it("finds a person by the address as typed and opens their page", async () => {
    await openConsole("#search");
    await userEvent.type(await screen.findByRole("searchbox", { name: copy.search.label }), "Ann.Lee+x@Example.test");
    await userEvent.click(screen.getByRole("button", { name: copy.search.submit }));
    const results = await screen.findByRole("table", { name: copy.search.caption });
    expect(requests()).toContain(`GET ${CONSOLE_PEOPLE_ENDPOINT}?q=Ann.Lee%2Bx%40Example.test`);
    expect(within(results).getByText(PERSON.email)).toBeVisible();
    await userEvent.click(within(results).getByRole("link", { name: "Ann Lee" }));
    expect(await screen.findByRole("heading", { level: 2, name: "Ann Lee" })).toBeVisible();
  });

  it("says what to type when the text is neither an address nor a referral code", async () => {
    routes[CONSOLE_PEOPLE_ENDPOINT] = () => errorAnswer(400, "parameter_invalid");
    await openConsole("#search/ann");
    expect(await screen.findByText(copy.search.invalid)).toBeVisible();
    expect(document.body).not.toHaveTextContent(SERVER_DETAIL);
  });

  it("says so when nobody matches", async () => {
    await openConsole("#search/nobody");
    expect(await screen.findByText(copy.search.empty)).toBeVisible();
  });

  it("shows every field of the person, the people they referred and what operators did", async () => {
    await openConsole(`#person/${PERSON.id}`);
    await screen.findByRole("heading", { level: 2, name: "Ann Lee" });
    const field = (label: string) => screen.getByText(label, { selector: "dt" }).nextElementSibling;
    expect(field(copy.person.email)).toHaveTextContent(PERSON.email);
    expect(field(copy.person.referralCode)).toHaveTextContent("K7QM2XPD");
    expect(field(copy.person.source)).toHaveTextContent("PickFund waitlist");
    expect(field(copy.person.createdAt)).toHaveTextContent("Jan 2, 2030");
    // On the site's clock: the fixture's launch moment is at -07:00.
    expect(field(copy.person.confirmedAt)).toHaveTextContent("Jan 2, 2030, 4:00 AM");
    expect(field(copy.person.disqualifiedAt)).toHaveTextContent(copy.none);
    expect(field(copy.person.deliveryState)).toHaveTextContent(copy.deliveryStates.refused);
    expect(field(copy.person.deliveryAttempts)).toHaveTextContent("3");
    expect(field(copy.person.deliveryError)).toHaveTextContent("Klaviyo refused the address");
    expect(field(copy.person.position)).toHaveTextContent("1,234");
    expect(field(copy.person.referrals)).toHaveTextContent("2");
    expect(field(copy.person.entries)).toHaveTextContent("3");
    expect(field(copy.person.referredBy)).toHaveTextContent("B0BB0B00");
    expect(field(copy.person.flags)).toHaveTextContent(copy.flags.burst.name);
    expect(field(copy.person.hold)).toHaveTextContent(copy.holds.codeLimit.name);
    expect(field(copy.person.properties)).toHaveTextContent("utm_source: newsletter");
    const referred = screen.getByRole("table", { name: copy.person.referredCaption.replace("{shown}", "1").replace("{total}", "7") });
    expect(within(referred).getByText(copy.flags.sameIpAsReferrer.name)).toBeVisible();
    expect(within(referred).getByText(copy.person.countedNo)).toBeVisible();
    const audit = screen.getByRole("table", { name: copy.audit.caption });
    expect(within(audit).getByText(copy.audit.actions.approve)).toBeVisible();
    expect(within(audit).getByText("Looked fine")).toBeVisible();
  });

  it("posts no action without a reason, then posts the reason and shows the person as they are now", async () => {
    const disqualified = { ...PERSON, disqualifiedAt: "2030-01-05T00:00:00.000Z" };
    routes[personActionEndpoint(PERSON.id, "disqualify")] = () => answer(200, { person: disqualified, audit: PERSON.audit[0] });
    await openConsole(`#person/${PERSON.id}`);
    await userEvent.click(await screen.findByRole("button", { name: copy.actions.disqualify }));
    const dialog = await screen.findByRole("dialog", {
      name: copy.dialog.title.replace("{action}", copy.actions.disqualify).replace("{name}", "Ann Lee"),
    });
    await userEvent.click(within(dialog).getByRole("button", { name: copy.dialog.confirm }));
    expect(within(dialog).getByRole("textbox", { name: copy.dialog.reasonLabel })).toHaveAccessibleDescription(copy.dialog.reasonRequired);
    expect(within(dialog).getByRole("textbox", { name: copy.dialog.reasonLabel })).toHaveFocus();
    await userEvent.type(within(dialog).getByRole("textbox", { name: copy.dialog.reasonLabel }), "   ");
    await userEvent.click(within(dialog).getByRole("button", { name: copy.dialog.confirm }));
    expect(requests().filter((request) => request.startsWith("POST"))).toEqual([]);

    await userEvent.clear(within(dialog).getByRole("textbox", { name: copy.dialog.reasonLabel }));
    await userEvent.type(within(dialog).getByRole("textbox", { name: copy.dialog.reasonLabel }), "Fifty friends from one domain");
    await userEvent.click(within(dialog).getByRole("button", { name: copy.dialog.confirm }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === "POST");
    expect(post?.[0]).toBe(personActionEndpoint(PERSON.id, "disqualify"));
    expect(JSON.parse(post?.[1].body as string)).toEqual({ reason: "Fifty friends from one domain" });
    expect(await screen.findByRole("button", { name: copy.actions.requalify })).toBeVisible();
    expect(screen.getByText(copy.dialog.done.replace("{action}", copy.actions.disqualify))).toBeInTheDocument();
  });

  it("refuses a reason longer than the service takes, before posting", async () => {
    await openConsole(`#person/${PERSON.id}`);
    await userEvent.click(await screen.findByRole("button", { name: copy.actions.approve }));
    const dialog = await screen.findByRole("dialog");
    const reason = within(dialog).getByRole("textbox", { name: copy.dialog.reasonLabel });
    await userEvent.click(reason);
    await userEvent.paste("x".repeat(REASON_MAX_LENGTH + 1));
    await userEvent.click(within(dialog).getByRole("button", { name: copy.dialog.confirm }));
    expect(reason).toHaveAccessibleDescription(copy.dialog.reasonTooLong.replace("{max}", String(REASON_MAX_LENGTH)));
    expect(requests().filter((request) => request.startsWith("POST"))).toEqual([]);
  });

  it("refuses an erase whose reason names the person or holds an address, at the field, before posting", async () => {
    await openConsole(`#person/${PERSON.id}`);
    await userEvent.click(await screen.findByRole("button", { name: copy.actions.erase }));
    const dialog = await screen.findByRole("dialog");
    const reason = within(dialog).getByRole("textbox", { name: copy.dialog.reasonLabel });
    await userEvent.click(within(dialog).getByRole("checkbox", { name: copy.dialog.eraseConfirm }));
    await userEvent.type(reason, "ann lee asked to be removed");
    await userEvent.click(within(dialog).getByRole("button", { name: copy.dialog.confirm }));
    expect(reason).toHaveAccessibleDescription(copy.dialog.reasonNamesPerson);
    await userEvent.clear(reason);
    await userEvent.type(reason, "Asked from ann@example.test");
    await userEvent.click(within(dialog).getByRole("button", { name: copy.dialog.confirm }));
    expect(reason).toHaveAccessibleDescription(copy.dialog.reasonNamesAddress);
    await userEvent.clear(reason);
    await userEvent.type(reason, "Called from 555 123 4567");
    await userEvent.click(within(dialog).getByRole("button", { name: copy.dialog.confirm }));
    expect(reason).toHaveAccessibleDescription(copy.dialog.reasonNamesNumber);
    await userEvent.clear(reason);
    await userEvent.type(reason, `Owner of ${PERSON.referralCode} asked`);
    await userEvent.click(within(dialog).getByRole("button", { name: copy.dialog.confirm }));
    expect(reason).toHaveAccessibleDescription(copy.dialog.reasonNamesPerson);
    expect(requests().filter((request) => request.startsWith("POST"))).toEqual([]);
  });

  it("shows a refused action in the content's words, never the server's", async () => {
    routes[personActionEndpoint(PERSON.id, "send-again")] = () => errorAnswer(409, "action_not_applicable");
    await openConsole(`#person/${PERSON.id}`);
    await userEvent.click(await screen.findByRole("button", { name: copy.actions.sendAgain }));
    const dialog = await screen.findByRole("dialog");
    await userEvent.type(within(dialog).getByRole("textbox", { name: copy.dialog.reasonLabel }), "Klaviyo list fixed");
    await userEvent.click(within(dialog).getByRole("button", { name: copy.dialog.confirm }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent(copy.errors.actionNotApplicable);
    expect(document.body).not.toHaveTextContent(SERVER_DETAIL);
  });

  it("asks to confirm an erase in plain words before posting it, then says the person is gone", async () => {
    routes[personActionEndpoint(PERSON.id, "erase")] = () => answer(200, { person: null, audit: { ...PERSON.audit[0], action: "erase" } });
    await openConsole(`#person/${PERSON.id}`);
    await userEvent.click(await screen.findByRole("button", { name: copy.actions.erase }));
    const dialog = await screen.findByRole("dialog");
    expect(dialog).toHaveTextContent(copy.dialog.eraseWarning);
    await userEvent.type(within(dialog).getByRole("textbox", { name: copy.dialog.reasonLabel }), "Asked by e-mail");
    await userEvent.click(within(dialog).getByRole("button", { name: copy.dialog.confirm }));
    const confirm = within(dialog).getByRole("checkbox", { name: copy.dialog.eraseConfirm });
    expect(confirm).toHaveAccessibleDescription(copy.dialog.eraseConfirmRequired);
    expect(confirm).toHaveFocus();
    expect(requests().filter((request) => request.startsWith("POST"))).toEqual([]);
    await userEvent.click(confirm);
    await userEvent.click(within(dialog).getByRole("button", { name: copy.dialog.confirm }));
    expect(await screen.findByText(copy.dialog.erased, { selector: "p" })).toBeVisible();
    expect(requests()).toContain(`POST ${personActionEndpoint(PERSON.id, "erase")}`);
  });

  it("downloads the person's export as JSON once a reason is given", async () => {
    const exported = { exportedAt: "2030-01-06T00:00:00.000Z", person: { id: PERSON.id, email: PERSON.email }, audit: [] };
    routes[personExportEndpoint(PERSON.id)] = () => answer(200, exported);
    const blobs: Blob[] = [];
    URL.createObjectURL = jest.fn((blob: Blob) => (blobs.push(blob), "blob:export"));
    URL.revokeObjectURL = jest.fn();
    const clicked: string[] = [];
    jest.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    await openConsole(`#person/${PERSON.id}`);
    await userEvent.click(await screen.findByRole("button", { name: copy.actions.export }));
    const dialog = await screen.findByRole("dialog");
    await userEvent.click(within(dialog).getByRole("button", { name: copy.dialog.confirm }));
    expect(within(dialog).getByRole("textbox", { name: copy.dialog.reasonLabel })).toHaveAccessibleDescription(copy.dialog.reasonRequired);
    expect(clicked).toEqual([]);
    await userEvent.type(within(dialog).getByRole("textbox", { name: copy.dialog.reasonLabel }), "Access request by e-mail");
    await userEvent.click(within(dialog).getByRole("button", { name: copy.dialog.confirm }));
    await waitFor(() => expect(clicked).toEqual([`person-${PERSON.id}.json`]));
    const post = fetchMock.mock.calls.find(([input, init]) => input === personExportEndpoint(PERSON.id) && init?.method === "POST");
    expect(post?.[1]?.body).toBe(JSON.stringify({ reason: "Access request by e-mail" }));
    // jsdom's Blob has no text(); FileReader reads it.
    const text = await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(reader.result as string);
      reader.readAsText(blobs[0]);
    });
    expect(JSON.parse(text)).toEqual(exported);
  });
});

describe("the review queue and the audit log", () => {
  const FIRST: ReviewAnswer = {
    people: [summary("p-1", "Dana", [FLAGS.sameIpAsOtherReferral]), summary("p-2", "Eli", [FLAGS.burst])],
    next: "p-2",
  };
  const SECOND: ReviewAnswer = { people: [summary("p-3", "Fay", [FLAGS.domainCluster])], next: null };

  beforeEach(() => {
    routes[CONSOLE_REVIEW_ENDPOINT] = (url) => answer(200, url.searchParams.get("before") === "p-2" ? SECOND : FIRST);
    routes[personActionEndpoint("p-1", "approve")] = () => answer(200, { person: null, audit: PERSON.audit[0] });
  });

  it("lists the flagged oldest first, approves one in place, and shows more with the cursor", async () => {
    await openConsole("#review");
    const queue = await screen.findByRole("table", { name: copy.review.caption });
    expect(within(queue).getByText(copy.flags.sameIpAsOtherReferral.name)).toBeVisible();
    const dana = within(queue).getByRole("link", { name: "Dana Flagged" }).closest("tr") as HTMLElement;
    await userEvent.click(within(dana).getByRole("button", { name: copy.actions.approve }));
    const dialog = await screen.findByRole("dialog");
    await userEvent.type(within(dialog).getByRole("textbox", { name: copy.dialog.reasonLabel }), "Same household");
    await userEvent.click(within(dialog).getByRole("button", { name: copy.dialog.confirm }));
    await waitFor(() => expect(within(queue).queryByRole("link", { name: "Dana Flagged" })).toBeNull());
    expect(requests()).toContain(`POST ${personActionEndpoint("p-1", "approve")}`);
    await userEvent.click(screen.getByRole("button", { name: copy.review.more }));
    expect(await within(queue).findByRole("link", { name: "Fay Flagged" })).toBeVisible();
    expect(requests()).toContain(`GET ${CONSOLE_REVIEW_ENDPOINT}?before=p-2`);
    expect(screen.queryByRole("button", { name: copy.review.more })).toBeNull();
  });

  it("shows the audit log's actions in the content's words, and older entries on request", async () => {
    const first: AuditAnswer = { entries: [PERSON.audit[0]], next: "9" };
    const older: AuditAnswer = {
      entries: [{ ...PERSON.audit[0], id: 3, action: "draw_commit", personId: null, reason: "Entries closed" }],
      next: null,
    };
    routes[CONSOLE_AUDIT_ENDPOINT] = (url) => answer(200, url.searchParams.get("before") === "9" ? older : first);
    await openConsole("#audit");
    const log = await screen.findByRole("table", { name: copy.audit.caption });
    expect(within(log).getByText(copy.audit.actions.approve)).toBeVisible();
    await userEvent.click(screen.getByRole("button", { name: copy.audit.more }));
    expect(await within(log).findByText(copy.audit.actions.drawCommit)).toBeVisible();
    expect(within(log).getByText("Entries closed")).toBeVisible();
  });

  it("names every launch action in the content's words, never as it is stored", async () => {
    const launchWords = {
      batch: copy.audit.actions.inviteBatch,
      invite: copy.audit.actions.invitePerson,
      revoke: copy.audit.actions.revokeInvitation,
      resend: copy.audit.actions.resendInvitation,
      schedule: copy.audit.actions.launchSchedule,
      pause: copy.audit.actions.pauseBatch,
      resume: copy.audit.actions.resumeBatch,
    } satisfies Record<keyof typeof LAUNCH_AUDIT_ACTIONS, string>;
    const entries = Object.values(LAUNCH_AUDIT_ACTIONS).map((action, index) => ({ ...PERSON.audit[0], id: 10 + index, action }));
    routes[CONSOLE_AUDIT_ENDPOINT] = () => answer(200, { entries, next: null });
    await openConsole("#audit");
    const log = await screen.findByRole("table", { name: copy.audit.caption });
    for (const words of Object.values(launchWords)) expect(within(log).getByText(words)).toBeVisible();
    for (const stored of Object.values(LAUNCH_AUDIT_ACTIONS)) expect(within(log).queryByText(stored)).toBeNull();
  });

  it("moves between screens by the menu, marking the current one", async () => {
    routes[CONSOLE_DASHBOARD_ENDPOINT] = () => answer(200, DASHBOARD);
    routes[CONSOLE_AUDIT_ENDPOINT] = () => answer(200, { entries: [], next: null });
    await openConsole();
    const menu = await screen.findByRole("navigation", { name: copy.navigation.label });
    expect(within(menu).getByRole("link", { name: copy.navigation.dashboard })).toHaveAttribute("aria-current", "page");
    await userEvent.click(within(menu).getByRole("link", { name: copy.navigation.audit }));
    expect(await screen.findByText(copy.audit.empty)).toBeVisible();
    expect(within(menu).getByRole("link", { name: copy.navigation.audit })).toHaveAttribute("aria-current", "page");
  });
});

describe("closing the giveaway draw", () => {
  const JOB = { operator: "ops@example.com", requestedAt: "2026-01-01T08:00:00.000Z", failure: null, commitment: null };

  it("shows the published rules, commits them only once confirmed, then the job's progress until published", async () => {
    const posted: unknown[] = [];
    let job: DrawState["job"] = null;
    routes[DRAW_STATE_ENDPOINT] = () => answer(200, { rules: DRAW_RULES, job });
    routes[DRAW_COMMIT_ENDPOINT] = (_url, init) => {
      posted.push(JSON.parse(init.body as string));
      job = { ...JOB, state: "writing", eligible: 1200, written: 400 };
      return answer(202, { rules: DRAW_RULES, job });
    };
    await openConsole("#draw");
    expect(await screen.findByText("launch")).toBeVisible();
    expect(screen.getByText((text) => text.includes("26,500,000"))).toBeVisible();
    const submit = screen.getByRole("button", { name: copy.draw.submit });
    expect(submit).toBeDisabled();
    await userEvent.click(screen.getByRole("checkbox", { name: copy.draw.confirm }));
    await userEvent.click(submit);
    expect(posted).toEqual([{ draw: "launch", winners: 3, cutoff: DRAW_RULES.cutoff }]);
    const status = await screen.findByText((text) => text.includes("1,200") && text.includes("400"));
    expect(status).toHaveAttribute("role", "status");
    expect(screen.queryByRole("button", { name: copy.draw.submit })).toBeNull();
  });

  const COMMITMENT: Commitment = {
    format: "pickfund-giveaway-draw/2",
    draw: "launch",
    rules: { cutoff: DRAW_RULES.cutoff, winners: 3, roundDelayHours: 24 },
    committedAt: "2026-01-01T08:01:00.000Z",
    chain: { hash: "ab".repeat(32), publicKey: "cd".repeat(96), period: 3, genesis: 1692803367 },
    round: DRAW_RULES.round,
    roundAt: DRAW_RULES.roundAt,
    n: 1200,
    totalEntries: 1500,
    listHash: "1".repeat(64),
    merkleRoot: "2".repeat(64),
    listUrl: "/giveaway/draw/launch/entrants.txt",
    listBytes: 1200 * 24,
    result: null,
  };
  const WINNERS = ["0a1b2c3d4e5f6071", "8899aabbccddeeff", "0011223344556677"];

  it("runs a published draw only once confirmed, then shows its winners in the order drawn", async () => {
    let runs = 0;
    let job: DrawState["job"] = { ...JOB, state: "published", eligible: 1200, written: 1200, commitment: COMMITMENT };
    routes[DRAW_STATE_ENDPOINT] = () => answer(200, { rules: DRAW_RULES, job });
    routes[DRAW_RUN_ENDPOINT] = () => {
      runs += 1;
      const drawn: Commitment = {
        ...COMMITMENT,
        result: {
          beacon: { round: DRAW_RULES.round, randomness: "3".repeat(64), signature: "4".repeat(96) },
          winners: WINNERS.map((pseudonym, index) => ({ pseudonym, index: index * 100, entries: 1 })),
          drawnAt: "2026-01-02T07:05:00.000Z",
        },
      };
      job = { ...JOB, state: "drawn", eligible: 1200, written: 1200, commitment: drawn };
      return answer(200, drawn);
    };
    await openConsole("#draw");
    const run = await screen.findByRole("button", { name: copy.draw.runSubmit });
    expect(screen.queryByRole("button", { name: copy.draw.submit })).toBeNull();
    expect(run).toBeDisabled();
    await userEvent.click(screen.getByRole("checkbox", { name: copy.draw.runConfirm }));
    await userEvent.click(run);
    expect(runs).toBe(1);
    expect(fetchMock.mock.calls.find(([input]) => input === DRAW_RUN_ENDPOINT)?.[1]?.method).toBe("POST");
    const drawn = await screen.findByText((text) => text.includes(WINNERS.join(", ")));
    expect(drawn).toHaveAttribute("role", "status");
    expect(screen.queryByRole("button", { name: copy.draw.runSubmit })).toBeNull();
  });

  it.each([
    ["the round is not out yet", RUN_REFUSAL.roundNotPublished, "roundNotPublished"],
    ["the content is not the committed one", RUN_REFUSAL.contentChanged, "contentChanged"],
  ] as const)("says in the content's words that %s, and draws nothing", async (_, code, words) => {
    const job: DrawState["job"] = { ...JOB, state: "published", eligible: 1200, written: 1200, commitment: COMMITMENT };
    routes[DRAW_STATE_ENDPOINT] = () => answer(200, { rules: DRAW_RULES, job });
    routes[DRAW_RUN_ENDPOINT] = () => errorAnswer(409, code);
    await openConsole("#draw");
    await userEvent.click(await screen.findByRole("checkbox", { name: copy.draw.runConfirm }));
    await userEvent.click(screen.getByRole("button", { name: copy.draw.runSubmit }));
    expect(await screen.findByRole("alert")).toHaveTextContent(copy.draw.runRefusals[words]);
    expect(screen.queryByText(SERVER_DETAIL)).toBeNull();
    expect(screen.getByRole("button", { name: copy.draw.runSubmit })).toBeVisible();
  });

  it("shows the service's refusal in the content's words, never the server's", async () => {
    routes[DRAW_STATE_ENDPOINT] = () => answer(200, { rules: DRAW_RULES, job: null });
    routes[DRAW_COMMIT_ENDPOINT] = () => errorAnswer(409, COMMIT_REFUSAL.roundPublished);
    await openConsole("#draw");
    await userEvent.click(await screen.findByRole("checkbox", { name: copy.draw.confirm }));
    await userEvent.click(screen.getByRole("button", { name: copy.draw.submit }));
    expect(await screen.findByRole("alert")).toHaveTextContent(copy.draw.refusals.roundPublished);
    expect(screen.queryByText(SERVER_DETAIL)).toBeNull();
  });
});

describe("the reason rule the dialog and the Worker share", () => {
  it.each([
    ["", "required"],
    [" \t ", "required"],
    ["x".repeat(REASON_MAX_LENGTH + 1), "tooLong"],
    ["Asked by\ne-mail", "controlCharacter"],
    ["Bell\u0007", "controlCharacter"],
    ["x".repeat(REASON_MAX_LENGTH), null],
    // Characters, not UTF-16 units: an emoji is one.
    ["\u{1F600}".repeat(REASON_MAX_LENGTH), null],
    ["Asked by e-mail, ticket 42", null],
    // An address spelled out, a phone number, a bidirectional override: each would outlive an erase, or hide one.
    ["Asked from ana(at)example.com", "namesAddress"],
    ["Asked from ana [at] example [dot] com", "namesAddress"],
    ["Asked from ana at example dot com", "namesAddress"],
    ["Asked from ana\uFF20example.com", "namesAddress"],
    ["Asked at the desk. Then left", null],
    ["Called from +1 (555) 123-4567", "namesNumber"],
    ["Customer 5551234", "namesNumber"],
    ["Ticket 123456 of 2026-11-29T10:00:00Z", null],
    ["Asked \u202Edevomer", "controlCharacter"],
    ["Asked \u2066isolated\u2069", "controlCharacter"],
    ["Family \u{1F468}\u200D\u{1F469}\u200D\u{1F467} asked", null],
  ])("%j is %s", (reason, problem) => {
    expect(reasonProblem(reason)).toBe(problem);
  });

  it("refuses the person's referral code as a whole word, in any case, and takes anyone else's", () => {
    const subject = { firstName: "Ann", lastName: "Lee", referralCode: "K7QM2XPD" };
    expect(reasonProblem("Owner of k7qm2xpd asked", subject)).toBe("namesPerson");
    expect(reasonProblem("Referred by B0BB0B00", subject)).toBeNull();
    expect(reasonProblem("Code XK7QM2XPDX", subject)).toBeNull();
  });
});

describe("the console's formats", () => {
  const format = consoleFormat("en", "UTC");

  it("names a time zone by its offset, which reads the same however the zone is named", () => {
    expect(format.zone("Etc/GMT+8")).toBe("GMT-08:00");
    expect(format.zone("Asia/Kolkata")).toBe("GMT+05:30");
  });

  it("writes an age in the content's language", () => {
    expect(format.age("2030-01-01T00:00:00.000Z", Date.parse("2030-01-01T03:30:00.000Z"))).toBe("3 hours ago");
    expect(format.age("2030-01-01T00:00:00.000Z", Date.parse("2030-01-03T00:00:00.000Z"))).toBe("2 days ago");
  });
});

describe("the Launch screen", () => {
  const FUNNEL: LaunchAnswer = {
    funnel: { waiting: 1200, invited: 300, accepted: 45, expired: 5, revoked: 2 },
    batches: [
      {
        id: "b-1",
        createdAt: "2030-06-01T16:00:00.000Z",
        operator: "ops@pickfund.example",
        reason: "First wave",
        requested: 300,
        invited: 300,
        queued: 10,
        sent: 289,
        failed: 1,
        skipped: { disqualified: 3, unconfirmed: 20, flagged: 4, invited: 0 },
        state: "sending",
        pausedAt: null,
      },
    ],
    days: [
      { date: "2030-05-31", waiting: 40, invited: 0, accepted: 0, expired: 0, revoked: 0 },
      { date: "2030-06-01", waiting: 12, invited: 300, accepted: 45, expired: 5, revoked: 2 },
    ],
    timeZone: "UTC",
    schedule: null,
  };
  const PREVIEW: LaunchPreview = {
    count: 3,
    firstPlace: 1,
    lastPlace: 5,
    skipped: { disqualified: 1, unconfirmed: 1, flagged: 0, invited: 0 },
    idempotencyKey: "after:b-1:next:3",
  };

  it("shows people by launch state and the batches' progress, then invites the next N after the preview with its key", async () => {
    routes[LAUNCH_ENDPOINT] = () => answer(200, FUNNEL);
    routes[LAUNCH_PREVIEW_ENDPOINT] = () => answer(200, PREVIEW);
    routes[LAUNCH_BATCHES_ENDPOINT] = () =>
      answer(201, { batch: { ...FUNNEL.batches[0], id: "b-2", requested: 3, invited: 3 }, audit: null });
    await openConsole("#launch");
    const funnel = await screen.findByRole("table", { name: copy.launch.funnelCaption });
    expect(within(funnel).getByRole("row", { name: `${copy.launch.states.invited} 300` })).toBeVisible();
    const batches = screen.getByRole("table", { name: copy.launch.batchesCaption });
    expect(within(batches).getByText(copy.launch.batchStates.sending)).toBeVisible();
    const days = screen.getByRole("table", { name: copy.launch.days.caption });
    expect(within(days).getByRole("columnheader", { name: copy.launch.days.series.waiting })).toBeVisible();
    expect(within(days).getByRole("row", { name: /^Jun 1 12 300 45 5 2$/ })).toBeVisible();
    expect(screen.getByRole("img", { name: copy.launch.days.chartLabel })).toBeInTheDocument();
    expect(screen.getByText(copy.launch.schedule.none)).toBeVisible();

    await userEvent.clear(screen.getByRole("spinbutton", { name: copy.launch.countLabel }));
    await userEvent.type(screen.getByRole("spinbutton", { name: copy.launch.countLabel }), "3");
    await userEvent.click(screen.getByRole("button", { name: copy.launch.previewButton }));
    expect(
      await screen.findByText(
        copy.launch.preview
          .replace("{count}", "3")
          .replace("{first}", "1")
          .replace("{last}", "5")
          .replace("{disqualified}", "1")
          .replace("{unconfirmed}", "1")
          .replace("{flagged}", "0")
          .replace("{invited}", "0"),
      ),
    ).toBeVisible();
    expect(requests()).toContain(`GET ${LAUNCH_PREVIEW_ENDPOINT}?count=3`);

    await userEvent.click(screen.getByRole("button", { name: copy.launch.invite.replace("{count}", "3") }));
    const dialog = await screen.findByRole("dialog");
    await userEvent.type(within(dialog).getByRole("textbox", { name: copy.dialog.reasonLabel }), "Second wave");
    await userEvent.click(within(dialog).getByRole("button", { name: copy.dialog.confirm }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === "POST");
    expect(post?.[0]).toBe(LAUNCH_BATCHES_ENDPOINT);
    expect(JSON.parse(post?.[1].body as string)).toEqual({ count: 3, reason: "Second wave", idempotencyKey: PREVIEW.idempotencyKey });
    expect(await screen.findByText(copy.launch.batchMade.replace("{invited}", "3"))).toBeInTheDocument();
  });

  it("saves the schedule with a reason, then pauses it, each through the service", async () => {
    const schedule: LaunchSchedule = {
      dailyCount: 50,
      timeOfDay: "10:30",
      paused: false,
      nextRunAt: "2030-06-02T10:30:00.000Z",
      updatedAt: "2030-06-01T17:00:00.000Z",
      operator: "ops@pickfund.example",
      reason: "Fifty a day",
    };
    let current: LaunchSchedule | null = null;
    routes[LAUNCH_ENDPOINT] = () => answer(200, { ...FUNNEL, schedule: current });
    routes[LAUNCH_SCHEDULE_ENDPOINT] = (_url, init) => {
      const body = JSON.parse(init?.body as string) as { paused: boolean; reason: string };
      current = { ...schedule, paused: body.paused, reason: body.reason, nextRunAt: body.paused ? null : schedule.nextRunAt };
      return answer(200, { schedule: current, audit: PERSON.audit[0] });
    };
    await openConsole("#launch");
    await userEvent.clear(await screen.findByRole("spinbutton", { name: copy.launch.schedule.countLabel }));
    await userEvent.type(screen.getByRole("spinbutton", { name: copy.launch.schedule.countLabel }), "50");
    fireEvent.change(screen.getByLabelText(copy.launch.schedule.timeLabel), { target: { value: "10:30" } });
    await userEvent.click(screen.getByRole("button", { name: copy.launch.schedule.save }));
    let dialog = await screen.findByRole("dialog");
    await userEvent.type(within(dialog).getByRole("textbox", { name: copy.dialog.reasonLabel }), "Fifty a day");
    await userEvent.click(within(dialog).getByRole("button", { name: copy.dialog.confirm }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === "PUT");
    expect(JSON.parse(put?.[1].body as string)).toEqual({ dailyCount: 50, timeOfDay: "10:30", paused: false, reason: "Fifty a day" });
    expect(await screen.findByText(/^50 a day at 10:30; next run/)).toBeVisible();

    await userEvent.click(screen.getByRole("button", { name: copy.launch.schedule.pause }));
    dialog = await screen.findByRole("dialog");
    await userEvent.type(within(dialog).getByRole("textbox", { name: copy.dialog.reasonLabel }), "Flow broken");
    await userEvent.click(within(dialog).getByRole("button", { name: copy.dialog.confirm }));
    expect(await screen.findByText(/Paused by ops@pickfund\.example: Flow broken$/)).toBeVisible();
    expect(screen.getByRole("button", { name: copy.launch.schedule.resume })).toBeVisible();
  });

  it("pauses a batch with a reason and shows it paused, with Resume", async () => {
    let paused: string | null = null;
    routes[LAUNCH_ENDPOINT] = () => answer(200, { ...FUNNEL, batches: [{ ...FUNNEL.batches[0], pausedAt: paused }] });
    routes[batchActionEndpoint("b-1", "pause")] = () => {
      paused = "2030-06-01T17:00:00.000Z";
      return answer(200, { batch: { ...FUNNEL.batches[0], pausedAt: paused }, audit: PERSON.audit[0] });
    };
    await openConsole("#launch");
    const batches = await screen.findByRole("table", { name: copy.launch.batchesCaption });
    await userEvent.click(within(batches).getByRole("button", { name: copy.launch.batchPause }));
    const dialog = await screen.findByRole("dialog");
    await userEvent.type(within(dialog).getByRole("textbox", { name: copy.dialog.reasonLabel }), "Wrong template");
    await userEvent.click(within(dialog).getByRole("button", { name: copy.dialog.confirm }));
    const after = await screen.findByRole("table", { name: copy.launch.batchesCaption });
    expect(await within(after).findByText(copy.launch.batchPaused)).toBeVisible();
    expect(within(after).getByRole("button", { name: copy.launch.batchResume })).toBeVisible();
    expect(requests()).toContain(`POST ${batchActionEndpoint("b-1", "pause")}`);
  });

  /** An open invitation whose event is on its way. */
  const INVITATION: Invitation = {
    id: "i-1",
    state: "invited",
    place: 12,
    batchId: null,
    invitedAt: "2030-06-01T16:00:00.000Z",
    expiresAt: "2030-06-08T16:00:00.000Z",
    acceptedAt: null,
    expiredAt: null,
    revokedAt: null,
    send: { state: "queued", attempts: 0, error: null, sentAt: null },
  };

  it("shows a person's invitation, and offers send again while Klaviyo has not taken it", async () => {
    const invitation: Invitation = {
      ...INVITATION,
      send: { state: "failed", attempts: 1, error: "Klaviyo refused the event", sentAt: null },
    };
    routes[personEndpoint(PERSON.id)] = () => answer(200, PERSON);
    routes[personInvitationEndpoint(PERSON.id)] = () => answer(200, { invitation });
    routes[personResendEndpoint(PERSON.id)] = () =>
      answer(200, { invitation: { ...invitation, send: { ...invitation.send, state: "queued", error: null } }, audit: PERSON.audit[0] });
    await openConsole(`#person/${PERSON.id}`);
    expect(await screen.findByText("Klaviyo refused the event")).toBeVisible();
    expect(screen.getByText(copy.launch.invitation.sendStates.failed)).toBeVisible();
    expect(screen.queryByRole("button", { name: copy.launch.personInvite })).toBeNull();
    await userEvent.click(screen.getByRole("button", { name: copy.launch.personResend }));
    const dialog = await screen.findByRole("dialog");
    await userEvent.type(within(dialog).getByRole("textbox", { name: copy.dialog.reasonLabel }), "Klaviyo fixed");
    await userEvent.click(within(dialog).getByRole("button", { name: copy.dialog.confirm }));
    expect(await screen.findByText(copy.launch.invitation.sendStates.queued)).toBeVisible();
    expect(requests()).toContain(`POST ${personResendEndpoint(PERSON.id)}`);
    expect(screen.getByRole("button", { name: copy.launch.personRevoke })).toBeVisible();
  });

  it("invites one person from their page with a reason", async () => {
    routes[personEndpoint(PERSON.id)] = () => answer(200, PERSON);
    routes[personInviteEndpoint(PERSON.id)] = () => answer(200, { invitation: INVITATION, audit: PERSON.audit[0] });
    await openConsole(`#person/${PERSON.id}`);
    await userEvent.click(await screen.findByRole("button", { name: copy.launch.personInvite }));
    const dialog = await screen.findByRole("dialog");
    await userEvent.type(within(dialog).getByRole("textbox", { name: copy.dialog.reasonLabel }), "Press contact");
    await userEvent.click(within(dialog).getByRole("button", { name: copy.dialog.confirm }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(requests()).toContain(`POST ${personInviteEndpoint(PERSON.id)}`);
    expect(
      await screen.findByText(new RegExp(`^${copy.launch.personInvitation.split("{state}")[0]}${copy.launch.states.invited}`)),
    ).toBeInTheDocument();
    // Their page shows the invitation now, with what applies to an open one.
    expect(screen.getByText(copy.launch.invitation.sendStates.queued)).toBeVisible();
    expect(screen.getByRole("button", { name: copy.launch.personRevoke })).toBeVisible();
    expect(screen.queryByRole("button", { name: copy.launch.personInvite })).toBeNull();
  });
});
