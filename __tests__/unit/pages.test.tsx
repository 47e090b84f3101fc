/**
 * The pages as a visitor meets them, rendered from the fixture content (not
 * content/site.yaml, so copy edits never break them): the signup page's parts in
 * reading order, /success, the 404 page and the error screen.
 */
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import NotFoundPage from "../../src/pages/404";
import IndexPage from "../../src/pages/index";
import SuccessPage from "../../src/pages/success";
import { loadTestContent } from "../support/content";
import { renderPage } from "../support/render";

const content = loadTestContent();

afterEach(() => {
  delete window.fbq;
  jest.restoreAllMocks();
});

describe("/success", () => {
  it("shows the welcome heading, both texts and JOIN DISCORD opening the invite in a new tab", () => {
    renderPage(SuccessPage, "/success/");
    expect(screen.getByRole("heading", { level: 1, name: "Welcome to the Team!" })).toBeInTheDocument();
    expect(screen.getByText(content.success.text)).toBeInTheDocument();
    expect(screen.getByText("Get ready for exclusive content")).toBeInTheDocument();
    const link = screen.getByRole("link", { name: /JOIN DISCORD/ });
    expect(link).toHaveAttribute("href", content.links.discordInviteUrl);
    expect(link).toHaveAttribute("target", "_blank");
    expect(link).toHaveAttribute("rel", "noopener noreferrer");
  });

  it("fires the pixel's Lead event once when a pixel is on the page", () => {
    const fbq = jest.fn();
    window.fbq = fbq;
    renderPage(SuccessPage, "/success/");
    expect(fbq.mock.calls).toEqual([["track", "Lead"]]);
  });

  it("does nothing, and logs no error, when there is no pixel", () => {
    const error = jest.spyOn(console, "error");
    expect(() => renderPage(SuccessPage, "/success/")).not.toThrow();
    expect(error).not.toHaveBeenCalled();
  });
});

describe("404", () => {
  it("shows the not-found copy and a link home, and logs the requested path", () => {
    const error = jest.spyOn(console, "error").mockImplementation(() => undefined);
    renderPage(NotFoundPage, "/no/such/page/");
    expect(screen.getByRole("heading", { level: 1, name: "Oops! Page not found" })).toBeInTheDocument();
    expect(screen.getByText("404")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Return to Home" })).toHaveAttribute("href", "/");
    expect(error).toHaveBeenCalledWith("404 Error: User attempted to access non-existent route:", "/no/such/page/");
  });
});

describe("error boundary", () => {
  it("shows 'Unexpected Application Error!' with the error's message when a page throws while rendering", async () => {
    jest.spyOn(console, "error").mockImplementation(() => undefined);
    function Broken(): never {
      throw new Error("Cannot read the countdown");
    }
    renderPage(Broken as never, "/");
    const alert = await screen.findByRole("alert");
    expect(within(alert).getByRole("heading", { name: "Unexpected Application Error!" })).toBeInTheDocument();
    expect(within(alert).getByText("Cannot read the countdown")).toBeInTheDocument();
  });
});

describe("/ from the fixture content", () => {
  beforeEach(() => jest.useFakeTimers({ now: Date.UTC(2030, 0, 1) }));
  afterEach(() => jest.useRealTimers());

  it("shows the title, countdown, tagline, form, social link, privacy note and badges, in reading order", () => {
    const { container } = renderPage(IndexPage, "/");
    const { home, links } = content;
    const title = screen.getByRole("heading", { level: 1, name: home.title });
    const timer = screen.getByRole("timer", { name: content.derived.countdownLabel });
    for (const unit of ["days", "hours", "minutes", "seconds"] as const)
      expect(within(timer).getByText(home.countdown[unit])).toBeInTheDocument();
    const tagline = screen.getByText(home.tagline);
    const form = screen.getByRole("form", { name: home.form.heading });
    for (const field of ["email", "firstName", "lastName"] as const) {
      expect(within(form).getByRole("textbox", { name: home.form[field].label })).toHaveAttribute(
        "placeholder",
        home.form[field].placeholder,
      );
    }
    expect(within(form).getByRole("button", { name: home.form.submit })).toBeEnabled();
    const social = screen.getByRole("link", { name: `${links.social.label} ${links.newTabHint}` });
    expect(social).toHaveAttribute("href", links.social.url);
    expect(social).toHaveAttribute("target", "_blank");
    const privacy = screen.getByText(home.privacyNote);
    const badges = [home.badges.ssl.label, home.badges.gdpr.label].map((name) => screen.getByRole("button", { name }));

    const order = [title, timer, tagline, form, social, privacy, ...badges];
    const positions = order.map((element) => [...container.querySelectorAll("*")].indexOf(element));
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  });
});

describe("background motion", () => {
  it("can be paused and restarted with a button in the footer, after the page content (WCAG 2.2.2)", async () => {
    const { container } = renderPage(IndexPage, "/");
    const layer = container.querySelector('[aria-hidden="true"][data-paused]');
    expect(layer).toHaveAttribute("data-paused", "false");
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Pause background animation" }));
    expect(layer).toHaveAttribute("data-paused", "true");
    await user.click(screen.getByRole("button", { name: "Play background animation" }));
    expect(layer).toHaveAttribute("data-paused", "false");
    const buttons = screen.getAllByRole("button");
    expect(buttons[buttons.length - 1]).toHaveAccessibleName("Pause background animation");
    // In the page's footer, in the flow below the content, not drawn over it.
    expect(within(screen.getByRole("contentinfo")).getByRole("button", { name: "Pause background animation" })).toBe(
      buttons[buttons.length - 1],
    );
  });
});
