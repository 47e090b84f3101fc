/** A table of audit entries (the audit log, a person's page): time, operator, action, person, reason, before and after. */

import styled from "styled-components";
import { AUDIT_ACTIONS, ERASURE_AUDIT_ACTIONS, PERSON_VIEWED_ACTION } from "../../shared/console";
import {
  DRAW_COMMIT_ACTION,
  DRAW_COMMIT_REQUEST_ACTION,
  DRAW_JOB_FAILED_ACTION,
  DRAW_RUN_ACTION,
  DRAW_RUN_REFUSED_ACTION,
} from "../../shared/giveaway/commit";
import { LAUNCH_AUDIT_ACTIONS } from "../../shared/launch";
import { theme } from "../styles/theme";
import type { ConsoleContent } from "./content";
import type { ConsoleFormat } from "./format";
import { CaptionedTable, PersonLink } from "./parts";
import { routeHash } from "./route";
import type { AuditEntry } from "../../shared/api/console";

type Copy = ConsoleContent["console"];

/** The content's name of each audit_log action the console knows. */
const AUDIT_WORD: Record<string, keyof Copy["audit"]["actions"]> = {
  [AUDIT_ACTIONS.disqualify]: "disqualify",
  [AUDIT_ACTIONS.requalify]: "requalify",
  [AUDIT_ACTIONS.approve]: "approve",
  [AUDIT_ACTIONS["send-again"]]: "sendAgain",
  [AUDIT_ACTIONS.erase]: "erase",
  [AUDIT_ACTIONS.export]: "exportPerson",
  [PERSON_VIEWED_ACTION]: "personViewed",
  [DRAW_COMMIT_REQUEST_ACTION]: "drawCommitRequest",
  [DRAW_COMMIT_ACTION]: "drawCommit",
  [DRAW_JOB_FAILED_ACTION]: "drawJobFailed",
  [DRAW_RUN_ACTION]: "drawRun",
  [DRAW_RUN_REFUSED_ACTION]: "drawRunRefused",
  [ERASURE_AUDIT_ACTIONS.done]: "erasureDone",
  [ERASURE_AUDIT_ACTIONS.refused]: "erasureRefused",
  [LAUNCH_AUDIT_ACTIONS.batch]: "inviteBatch",
  [LAUNCH_AUDIT_ACTIONS.invite]: "invitePerson",
  [LAUNCH_AUDIT_ACTIONS.revoke]: "revokeInvitation",
  [LAUNCH_AUDIT_ACTIONS.resend]: "resendInvitation",
  [LAUNCH_AUDIT_ACTIONS.schedule]: "launchSchedule",
  [LAUNCH_AUDIT_ACTIONS.pause]: "pauseBatch",
  [LAUNCH_AUDIT_ACTIONS.resume]: "resumeBatch",
};

/** An action's name in the content's words; an action of a newer Worker is shown as it is stored. */
export function auditActionName(copy: Copy, action: string): string {
  const word = AUDIT_WORD[action];
  return word ? copy.audit.actions[word] : action;
}

/** A before/after value as compact JSON (values only: the audit log never holds an address or a name). */
function json(value: unknown): string {
  return value === null || value === undefined ? "" : JSON.stringify(value);
}

export function AuditTable({
  copy,
  format,
  entries,
  showPerson,
}: {
  copy: Copy;
  format: ConsoleFormat;
  entries: readonly AuditEntry[];
  showPerson: boolean;
}) {
  const words = copy.audit;
  return (
    <CaptionedTable caption={words.caption}>
      <thead>
        <tr>
          <th scope="col">{words.atColumn}</th>
          <th scope="col">{words.operatorColumn}</th>
          <th scope="col">{words.actionColumn}</th>
          {showPerson ? <th scope="col">{words.personColumn}</th> : null}
          <th scope="col">{words.reasonColumn}</th>
          <th scope="col">{words.changeColumn}</th>
        </tr>
      </thead>
      <tbody>
        {entries.map((entry) => (
          <tr key={entry.id}>
            <td>{format.dateTime(entry.at)}</td>
            <td>{entry.operator}</td>
            <td>{auditActionName(copy, entry.action)}</td>
            {showPerson ? (
              <td>
                {entry.personId ? (
                  <PersonLink href={routeHash({ view: "person", id: entry.personId })}>{entry.personId}</PersonLink>
                ) : (
                  copy.none
                )}
              </td>
            ) : null}
            <td>{entry.reason}</td>
            <td>
              <ChangeList copy={copy} entry={entry} />
            </td>
          </tr>
        ))}
      </tbody>
    </CaptionedTable>
  );
}

/** An entry's change: the values before and after, or the content's "none" for each that is empty. */
function ChangeList({ copy, entry }: { copy: Copy; entry: AuditEntry }) {
  return (
    <Change>
      <dt>{copy.audit.before}</dt>
      <dd>
        <code>{json(entry.before) || copy.none}</code>
      </dd>
      <dt>{copy.audit.after}</dt>
      <dd>
        <code>{json(entry.after) || copy.none}</code>
      </dd>
    </Change>
  );
}

const Change = styled.dl`
  display: grid;
  grid-template-columns: auto 1fr;
  gap: 0 ${theme.space.sm};
  margin: 0;
  dd {
    margin: 0;
    overflow-wrap: anywhere;
  }
  code {
    font-family: ${theme.fonts.mono};
    font-size: 0.85rem;
  }
`;
