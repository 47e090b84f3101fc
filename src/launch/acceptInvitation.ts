/**
 * The stand-in /invite/ page's one call: `POST /api/invitations/accept` with the link's token (shared/launch.ts), and
 * its answer as the page's words pick them. The browser's own error text is never shown.
 */
import { INVITATION_TOKEN_PATTERN, INVITE_ACCEPT_ENDPOINT, INVITE_PARAMETER, LAUNCH_ERROR_CODE } from "../../shared/invitations";
import { JSON_CONTENT_TYPE } from "../../shared/contract";
import { send } from "../api/client";
import { jsonApiErrors } from "../api/errors";

/** How long accepting may take before the page says the service could not be reached (ms). */
const ACCEPT_TIMEOUT_MS = 10_000;

/** What accepting came to. */
export type Acceptance =
  | { kind: "accepted"; firstName: string }
  | { kind: "used" }
  | { kind: "expired" }
  | { kind: "revoked" }
  | { kind: "unknown" }
  /** Not accepted here (the live site), or the service could not be reached. */
  | { kind: "unavailable" };

/** The invitation token of a page address's query (`?invite=<token>`), or null when there is none of its form. */
export function inviteTokenIn(search: string): string | null {
  const token = new URLSearchParams(search).get(INVITE_PARAMETER);
  return token !== null && INVITATION_TOKEN_PATTERN.test(token) ? token : null;
}

const BY_CODE: Record<string, Acceptance> = {
  [LAUNCH_ERROR_CODE.invitationUsed]: { kind: "used" },
  [LAUNCH_ERROR_CODE.invitationExpired]: { kind: "expired" },
  [LAUNCH_ERROR_CODE.invitationRevoked]: { kind: "revoked" },
  [LAUNCH_ERROR_CODE.invitationUnknown]: { kind: "unknown" },
};

/** Accept the invitation; never throws. */
export async function acceptInvitation(token: string): Promise<Acceptance> {
  const answer = await send(
    INVITE_ACCEPT_ENDPOINT,
    { method: "POST", headers: { "content-type": JSON_CONTENT_TYPE, accept: JSON_CONTENT_TYPE }, body: JSON.stringify({ token }) },
    { timeoutMs: ACCEPT_TIMEOUT_MS },
  );
  if (!answer.answered) return { kind: "unavailable" };
  const firstName = (answer.body as { firstName?: unknown } | null)?.firstName;
  if (answer.status === 200 && typeof firstName === "string") return { kind: "accepted", firstName };
  const code = jsonApiErrors(answer.body)[0]?.code;
  return (typeof code === "string" && BY_CODE[code]) || { kind: "unavailable" };
}
