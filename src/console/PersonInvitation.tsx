/**
 * A person's invitation on their page (docs/operators.md: Launch): its state, times and e-mail delivery, and the
 * actions that apply, each behind the reason dialog: invite now (waiting, expired or revoked), send again (open, and
 * Klaviyo has not taken its event: the same unique_id, so never e-mailed twice) and revoke (open).
 */
import React from "react";
import type { Invitation, PersonInvitationAnswer } from "../../shared/api/launch";
import { personInvitationEndpoint, type PersonInvitationAction } from "../../shared/launch";
import { ActionDialog } from "./ActionDialog";
import { postInvitation } from "./api";
import type { ConsoleContent } from "./content";
import { fill, type ConsoleFormat } from "./format";
import { ButtonRow, Details, Failure, Loading, Muted, SubHeading } from "./parts";
import { useAnswer } from "./useAnswer";

type Copy = ConsoleContent["console"];

/** The invitation actions that apply to the person's latest invitation (the service refuses the others with 409). */
export function invitationActions(invitation: Invitation | null): PersonInvitationAction[] {
  if (invitation === null || invitation.state === "expired" || invitation.state === "revoked") return ["invite"];
  if (invitation.state !== "invited") return [];
  return invitation.send.state === "sent" ? ["revoke"] : ["resend-invitation", "revoke"];
}

/** The person's invitation and its actions; `announce` tells screen readers what an action did. */
export function PersonInvitation({
  copy,
  format,
  person,
  announce,
  canAct,
}: {
  copy: Copy;
  format: ConsoleFormat;
  person: { id: string; name: string };
  announce: (text: string) => void;
  /** An operator's session: a viewer sees it with no control to act. */
  canAct: boolean;
}) {
  const words = copy.launch;
  const { state, reload, replace } = useAnswer<PersonInvitationAnswer>(personInvitationEndpoint(person.id));
  const actionNames: Record<PersonInvitationAction, string> = {
    invite: words.personInvite,
    "resend-invitation": words.personResend,
    revoke: words.personRevoke,
  };
  return (
    <>
      <SubHeading>{words.invitation.heading}</SubHeading>
      {state.kind === "loading" ? (
        <Loading copy={copy} />
      ) : state.kind === "failed" ? (
        <Failure copy={copy} error={state.error} onRetry={reload} />
      ) : (
        <>
          {state.answer.invitation === null ? (
            <Muted>{words.invitation.none}</Muted>
          ) : (
            <InvitationDetails copy={copy} format={format} invitation={state.answer.invitation} />
          )}
          <ButtonRow>
            {(canAct ? invitationActions(state.answer.invitation) : []).map((action) => (
              <ActionDialog
                key={action}
                copy={copy}
                personName={person.name}
                actionName={actionNames[action]}
                perform={(reason) => postInvitation(person.id, action, { reason })}
                onDone={({ invitation }) => {
                  announce(
                    fill(words.personInvitation, { state: words.states[invitation.state], date: format.dateTime(invitation.expiresAt) }),
                  );
                  replace(() => ({ invitation }));
                }}
              />
            ))}
          </ButtonRow>
        </>
      )}
    </>
  );
}

/** The invitation's fields as terms and values; a missing time reads as the content's "none". */
function InvitationDetails({ copy, format, invitation }: { copy: Copy; format: ConsoleFormat; invitation: Invitation }) {
  const words = copy.launch.invitation;
  const when = (iso: string | null) => (iso ? format.dateTime(iso) : copy.none);
  const rows: [string, string][] = [
    [words.state, copy.launch.states[invitation.state]],
    [words.place, format.count(invitation.place)],
    [words.invitedAt, when(invitation.invitedAt)],
    [words.expiresAt, when(invitation.expiresAt)],
    [words.acceptedAt, when(invitation.acceptedAt)],
    [words.expiredAt, when(invitation.expiredAt)],
    [words.revokedAt, when(invitation.revokedAt)],
    [words.sendState, words.sendStates[invitation.send.state]],
    [words.sendAttempts, format.count(invitation.send.attempts)],
    [words.sendError, invitation.send.error ?? copy.none],
    [words.sentAt, when(invitation.send.sentAt)],
  ];
  return (
    <Details>
      {rows.map(([label, value]) => (
        <React.Fragment key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </React.Fragment>
      ))}
    </Details>
  );
}
