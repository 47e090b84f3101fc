/**
 * The two badges and their tooltips (product rules 1, 25): each explained in one sentence
 * from the content, reachable by keyboard.
 */
import { act, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import IndexPage from "../../src/pages/index";
import { loadTestContent } from "../support/content";
import { renderPage } from "../support/render";

const content = loadTestContent();

it("shows both badges", () => {
  renderPage(IndexPage);
  expect(screen.getByRole("button", { name: "SSL Secured" })).toBeInTheDocument();
  expect(screen.getByRole("button", { name: "GDPR Compliant" })).toBeInTheDocument();
});

it.each([
  ["SSL Secured", content.home.badges.ssl.tooltip],
  ["GDPR Compliant", content.home.badges.gdpr.tooltip],
])("explains '%s' in a tooltip when the badge gets keyboard focus, keeping focus on it", async (label, sentence) => {
  renderPage(IndexPage);
  act(() => screen.getByRole("button", { name: label }).focus());
  const tooltip = await screen.findByRole("tooltip");
  expect(tooltip).toHaveTextContent(sentence);
  expect(screen.getByRole("button", { name: label })).toHaveFocus();
});

it("opens the tooltip for a pointer only after the 700 ms delay", async () => {
  jest.useFakeTimers();
  renderPage(IndexPage);
  const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
  await user.hover(screen.getByRole("button", { name: "SSL Secured" }));
  // The first hover loads the tooltips; the next pointer movement is what Radix listens to.
  await act(async () => jest.advanceTimersByTimeAsync(0));
  await user.pointer({ target: screen.getByRole("button", { name: "SSL Secured" }), coords: { x: 2, y: 2 } });
  await act(async () => jest.advanceTimersByTimeAsync(650));
  expect(screen.queryByRole("tooltip")).not.toBeInTheDocument();
  await act(async () => jest.advanceTimersByTimeAsync(100));
  expect(within(screen.getByRole("tooltip")).getByText(content.home.badges.ssl.tooltip)).toBeInTheDocument();
  jest.useRealTimers();
});
