/**
 * The stand-in /invite/ page's one call: `POST /api/invitations/accept` with the link's token (shared/launch.ts), and
 * its answer as the page's words pick them. The browser's own error text is never shown.
 */
import { INVITATION_TOKEN_PATTERN, INVITE_ACCEPT_ENDPOINT, INVITE_PARAMETER, LAUNCH_ERROR_CODE } from "../../shared/launch";
import { JSON_CONTENT_TYPE } from "../../shared/contract";

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
  try {
    const response = await fetch(INVITE_ACCEPT_ENDPOINT, {
      method: "POST",
      headers: { "content-type": JSON_CONTENT_TYPE, accept: "application/json" },
      body: JSON.stringify({ token }),
    });
    const body = (await response.json().catch(() => null)) as { firstName?: unknown; errors?: { code?: unknown }[] } | null;
    if (response.status === 200 && typeof body?.firstName === "string") return { kind: "accepted", firstName: body.firstName };
    const code = body?.errors?.[0]?.code;
    return (typeof code === "string" && BY_CODE[code]) || { kind: "unavailable" };
  } catch {
    return { kind: "unavailable" };
  }
}
