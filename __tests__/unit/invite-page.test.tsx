/**
 * The stand-in /invite/ page (docs/operators.md: Launch), rendered from the fixture content with the service's
 * answers stubbed at fetch: the link's token read and moved out of the address bar, accepted by the button only, once,
 * and every refusal in the content's words.
 */
import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import InvitePage from "../../src/pages/invite";
import { loadTestContent } from "../support/content";
import { renderPage } from "../support/render";

const content = loadTestContent();
const { invite } = content;
const TOKEN = "Qx7Lm2Pv9Rt4Wy8Zb3Nc6Hd1Jf5Kg0Sa7Ue2Io4Tp9w";

const fetchMock = jest.fn<Promise<unknown>, [string, RequestInit]>();
const answer = (status: number, body: unknown) => ({
  status,
  ok: status < 300,
  headers: new Headers(),
  text: () => Promise.resolve(JSON.stringify(body)),
});
const refusal = (status: number, code: string) => answer(status, { errors: [{ status: String(status), code, detail: "" }] });

beforeEach(() => {
  fetchMock.mockReset();
  global.fetch = fetchMock as unknown as typeof fetch;
  window.history.replaceState(null, "", `/invite/?invite=${TOKEN}`);
});

it("accepts the invitation with the button, never on load, and takes the token out of the address bar", async () => {
  fetchMock.mockResolvedValue(answer(200, { email: "ada@example.com", firstName: "Ada", lastName: "Lopez", place: 3 }));
  renderPage(InvitePage, "/invite/", content);
  expect(await screen.findByText(invite.intro)).toBeInTheDocument();
  expect(window.location.search).toBe("");
  expect(fetchMock).not.toHaveBeenCalled();
  await userEvent.click(screen.getByRole("button", { name: invite.accept }));
  expect(await screen.findByText(invite.accepted.replace("{firstName}", "Ada"))).toBeInTheDocument();
  const [url, init] = fetchMock.mock.calls[0];
  expect(url).toBe("/api/invitations/accept");
  expect(JSON.parse(String(init.body))).toEqual({ token: TOKEN });
  expect(screen.queryByRole("button", { name: invite.accept })).not.toBeInTheDocument();
});

it.each([
  [409, "invitation_used", () => invite.used],
  [410, "invitation_expired", () => invite.expired],
  [410, "invitation_revoked", () => invite.revoked],
  [404, "invitation_unknown", () => invite.unknown],
  // The live site's service does not accept here.
  [404, "not_found", () => invite.unavailable],
])("a %s %s answer says so in the content's words", async (status, code, words) => {
  fetchMock.mockResolvedValue(refusal(status, code));
  renderPage(InvitePage, "/invite/", content);
  await userEvent.click(await screen.findByRole("button", { name: invite.accept }));
  expect(await screen.findByText(words())).toBeInTheDocument();
});

it("asks for the e-mail's link when the address carries no token, and asks the service nothing", async () => {
  window.history.replaceState(null, "", "/invite/");
  renderPage(InvitePage, "/invite/", content);
  expect(await screen.findByText(invite.missingToken)).toBeInTheDocument();
  expect(screen.queryByRole("button", { name: invite.accept })).not.toBeInTheDocument();
  expect(fetchMock).not.toHaveBeenCalled();
});
