/**
 * The signup form refuses, before anything leaves the browser, a name holding a link, an @ or a hidden character and
 * an address with no canonical inbox (shared/validation.ts): the toast in the content's words, the field focused,
 * no request. On both the Klaviyo transport of the fixture and the waitlist service.
 */
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { navigate } from "gatsby";
import IndexPage from "../../src/pages/index";
import { loadTestContent, loadTestVariant, type TestSiteContent } from "../support/content";
import { renderPage } from "../support/render";

const clientApi = loadTestContent();
const service = loadTestVariant([[["provider", "transport"], "waitlist-api"]]);
const { toasts, home } = clientApi;

/** fetch as the signup client calls it: (url, init). */
const fetchMock = jest.fn<Promise<unknown>, [string, RequestInit]>();

/** A success as fetch gives it on either transport (202: Klaviyo's has no body; the service's says `{"accepted":true}`). */
const ACCEPTED = {
  type: "basic",
  status: 202,
  ok: true,
  headers: { get: () => null },
  text: () => Promise.resolve(JSON.stringify({ accepted: true })),
};

beforeEach(() => {
  fetchMock.mockReset();
  fetchMock.mockResolvedValue(ACCEPTED);
  global.fetch = fetchMock as unknown as typeof fetch;
  (navigate as jest.Mock).mockReset();
});

/** Type into the three fields (a value is pasted, as a bot's or a copied text arrives) and submit. */
async function fillAndSubmit(values: { email: string; first: string; last: string }) {
  const user = userEvent.setup();
  const fill = async (label: string, value: string) => {
    await user.click(screen.getByLabelText(label));
    await user.paste(value);
  };
  await fill(home.form.email.label, values.email);
  await fill(home.form.firstName.label, values.first);
  await fill(home.form.lastName.label, values.last);
  fireEvent.submit(screen.getByRole("form"));
}

/** The toast region's text (title and message of every toast showing). */
function toastTexts(): string[] {
  const region = screen.getByRole("region", { name: /Notifications/ });
  return within(region)
    .queryAllByRole("alert")
    .map((element) => element.textContent ?? "");
}

const VALID = { email: "jordan@example.com", first: "Jordan", last: "Smith" };

describe.each<[string, TestSiteContent]>([
  ["client-api", clientApi],
  ["waitlist-api", service],
])("on %s", (_transport, content) => {
  it.each<[string, Partial<typeof VALID>, keyof typeof toasts, string]>([
    ["a first name holding a link", { first: "Claim $500 at https://pickfund-bonus.io" }, "firstNameInvalid", home.form.firstName.label],
    ["a first name shaped like a domain", { first: "pickfund-bonus.io" }, "firstNameInvalid", home.form.firstName.label],
    ["a first name holding an @", { first: "jordan@example" }, "firstNameInvalid", home.form.firstName.label],
    ["a last name holding a terminal escape", { last: "Smith\u001b[2K" }, "lastNameInvalid", home.form.lastName.label],
    ["a last name holding a bidirectional override", { last: "Smith\u202e" }, "lastNameInvalid", home.form.lastName.label],
    ["an address with a zero-width space", { email: "jor\u200bdan@example.com" }, "invalidEmail", home.form.email.label],
    ["an address with a quoted local part", { email: '"jordan"@example.com' }, "invalidEmail", home.form.email.label],
    ["an address whose domain has an empty label", { email: "jordan@example..com" }, "invalidEmail", home.form.email.label],
  ])("%s: the field's toast, the field focused, nothing sent", async (_case, change, failure, label) => {
    renderPage(IndexPage, "/", content);
    await fillAndSubmit({ ...VALID, ...change });
    const toast = toasts[failure] as { title: string; message: string };
    await waitFor(() => expect(toastTexts()).toEqual([`${toast.title}${toast.message}`]));
    expect(screen.getByLabelText(label)).toHaveFocus();
    expect(fetchMock).not.toHaveBeenCalled();
    expect(navigate).not.toHaveBeenCalled();
  });

  it("real names and an address with a trailing dot are sent", async () => {
    renderPage(IndexPage, "/", content);
    await fillAndSubmit({ email: "jordan@example.com.", first: "José-Anne", last: "O'Brien" });
    await waitFor(() => expect(navigate).toHaveBeenCalled());
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});

it("the content gives each new failure its own words", () => {
  expect(toasts.firstNameInvalid.message).not.toBe(toasts.lastNameInvalid.message);
  expect(toasts.firstNameInvalid.title).toBeTruthy();
});
