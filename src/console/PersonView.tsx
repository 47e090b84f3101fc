/**
 * One person's page: every field of the PersonAnswer, the people they referred, what operators did to them, and the
 * actions (each through the reason dialog) with the export of their data as a JSON download.
 */
import React, { useState } from "react";
import styled from "styled-components";
import { personEndpoint, type PersonAction } from "../../shared/console";
import { ActionDialog, ACTION_WORD, PersonActionDialog } from "./ActionDialog";
import { postExport } from "./api";
import { AuditTable } from "./AuditTable";
import type { ConsoleContent } from "./content";
import { fill, type ConsoleFormat } from "./format";
import {
  ButtonRow,
  Details,
  Failure,
  Loading,
  Marks,
  Muted,
  PersonLink,
  type ScreenProps,
  Section,
  SectionHeading,
  SubHeading,
  Table,
  TableScroll,
} from "./parts";
import { PersonInvitation } from "./PersonInvitation";
import { standingOf } from "./PeopleTable";
import { routeHash } from "./route";
import { useAnswer } from "./useAnswer";
import type { PersonAnswer } from "../../shared/api/console";

type Copy = ConsoleContent["console"];

/** The actions that apply to the person as they are (the service refuses the others with action_not_applicable). */
export function applicableActions(person: PersonAnswer): PersonAction[] {
  const actions: PersonAction[] = [];
  actions.push(person.disqualifiedAt ? "requalify" : "disqualify");
  if ((person.flags.length > 0 || person.referralHold) && !person.reviewedAt) actions.push("approve");
  if (person.delivery.state === "refused" || person.delivery.state === "pending") actions.push("send-again");
  actions.push("erase");
  return actions;
}

/**
 * Save a person's export as `person-<id>.json` through the browser's download; the reason goes into its audit entry.
 * @throws ConsoleError when the service does not answer with the export
 */
async function downloadExport(id: string, reason: string): Promise<void> {
  const data = await postExport(id, { reason });
  const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: "application/json" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = `person-${id}.json`;
  document.body.appendChild(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

type ViewProps = { copy: Copy; format: ConsoleFormat };

/** The link back to where the operator came from (the browser's history, or the console's start). */
function BackLink({ copy }: { copy: Copy }) {
  return (
    <PersonLink href="#" onClick={(event) => (window.history.length > 1 ? (event.preventDefault(), window.history.back()) : undefined)}>
      {copy.person.back}
    </PersonLink>
  );
}

/**
 * One person's page, from loading their answer to their erasure; `announce` tells screen readers what an action did.
 * `canAct`: an operator's session (a viewer sees the person without the actions, the export and the invitation).
 */
export function PersonView({ copy, format, id, announce, canAct }: ScreenProps & { id: string }) {
  const { state, reload, replace } = useAnswer<PersonAnswer>(personEndpoint(id));
  const [erased, setErased] = useState(false);

  if (erased)
    return (
      <Section aria-label={copy.dialog.erased}>
        <BackLink copy={copy} />
        <p role="status">{copy.dialog.erased}</p>
      </Section>
    );
  if (state.kind !== "ready")
    return (
      <Section aria-label={copy.person.detailsHeading}>
        <BackLink copy={copy} />
        {state.kind === "loading" ? <Loading copy={copy} /> : <Failure copy={copy} error={state.error} onRetry={reload} />}
      </Section>
    );

  const person = state.answer;
  const done = (action: PersonAction) => (answer: { person: PersonAnswer | null }) => {
    announce(fill(copy.dialog.done, { action: copy.actions[ACTION_WORD[action]] }));
    if (answer.person === null) setErased(true);
    else {
      const now = answer.person;
      replace(() => now);
    }
  };

  return (
    <Section aria-labelledby="person-heading">
      <BackLink copy={copy} />
      <SectionHeading id="person-heading">{fullName(person)}</SectionHeading>
      <Muted>{standingOf(copy, person)}</Muted>
      {canAct ? <PersonActions copy={copy} person={person} announce={announce} done={done} /> : null}
      <PersonInvitation
        copy={copy}
        format={format}
        person={{ id: person.id, name: fullName(person) }}
        announce={announce}
        canAct={canAct}
      />
      <SubHeading>{copy.person.detailsHeading}</SubHeading>
      <PersonDetails copy={copy} format={format} person={person} />
      <SubHeading>{copy.person.referredHeading}</SubHeading>
      <ReferredTable copy={copy} format={format} person={person} />
      <SubHeading>{copy.person.auditHeading}</SubHeading>
      {person.audit.length === 0 ? (
        <Muted>{copy.audit.empty}</Muted>
      ) : (
        <AuditTable copy={copy} format={format} entries={person.audit} showPerson={false} />
      )}
    </Section>
  );
}

function fullName(person: { firstName: string; lastName: string }): string {
  return `${person.firstName} ${person.lastName}`;
}

/** The actions that apply to the person, each behind the reason dialog, and the export of their data. */
function PersonActions({
  copy,
  person,
  announce,
  done,
}: Pick<ViewProps, "copy"> & {
  person: PersonAnswer;
  announce: (text: string) => void;
  done: (action: PersonAction) => (answer: { person: PersonAnswer | null }) => void;
}) {
  const name = fullName(person);
  return (
    <>
      <SubHeading>{copy.person.actionsHeading}</SubHeading>
      <ButtonRow>
        {applicableActions(person).map((action) => (
          <PersonActionDialog
            key={action}
            copy={copy}
            person={{ id: person.id, name, firstName: person.firstName, lastName: person.lastName, referralCode: person.referralCode }}
            action={action}
            onDone={done(action)}
          />
        ))}
        <ActionDialog
          copy={copy}
          personName={name}
          actionName={copy.actions.export}
          subject={person}
          perform={(reason) => downloadExport(person.id, reason)}
          onDone={() => announce(fill(copy.dialog.done, { action: copy.actions.export }))}
        />
      </ButtonRow>
    </>
  );
}

/** Every field of the PersonAnswer as a term and its value; a missing value reads as the content's "none". */
function PersonDetails({ copy, format, person }: ViewProps & { person: PersonAnswer }) {
  return (
    <Details>
      {detailRows(copy, format, person).map(([label, value]) => (
        <React.Fragment key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </React.Fragment>
      ))}
    </Details>
  );
}

/** PersonDetails' rows: [the content's label, the value as shown]. */
function detailRows(copy: Copy, format: ConsoleFormat, person: PersonAnswer): [string, React.ReactNode][] {
  const when = (iso: string | null) => (iso ? format.dateTime(iso) : copy.none);
  const words = copy.person;
  return [
    [words.email, person.email],
    [words.referralCode, person.referralCode ?? copy.none],
    [words.source, person.source || copy.none],
    [words.createdAt, when(person.createdAt)],
    [words.confirmedAt, when(person.confirmedAt)],
    [words.disqualifiedAt, when(person.disqualifiedAt)],
    [words.reviewedAt, when(person.reviewedAt)],
    [words.deliveryState, copy.deliveryStates[person.delivery.state]],
    [words.deliveryAttempts, format.count(person.delivery.attempts)],
    [words.deliveryError, person.delivery.error ?? copy.none],
    [words.deliveredAt, when(person.delivery.deliveredAt)],
    [words.position, person.position === null ? copy.none : format.count(person.position)],
    [words.referrals, format.count(person.referrals)],
    [words.entries, format.count(person.entries)],
    [
      words.referredBy,
      person.referredBy ? (
        <PersonLink href={routeHash({ view: "person", id: person.referredBy.id })}>
          {person.referredBy.referralCode ?? person.referredBy.id}
        </PersonLink>
      ) : (
        copy.none
      ),
    ],
    [words.flags, <Marks key="flags" copy={copy} flags={person.flags} />],
    [words.hold, person.referralHold ? <Marks key="hold" copy={copy} flags={[]} hold={person.referralHold} /> : copy.none],
    [words.properties, <PropertyList key="properties" copy={copy} properties={person.properties} />],
  ];
}

/** The profile properties as `key: value` lines, or the content's "none". */
function PropertyList({ copy, properties }: { copy: Copy; properties: PersonAnswer["properties"] }) {
  const entries = Object.entries(properties);
  if (entries.length === 0) return <>{copy.none}</>;
  return (
    <Properties>
      {entries.map(([key, value]) => (
        <li key={key}>
          <code>{key}</code>: {value}
        </li>
      ))}
    </Properties>
  );
}

/** The people this person referred, each with their standing, marks and whether the referral counted. */
function ReferredTable({ copy, format, person }: ViewProps & { person: PersonAnswer }) {
  const words = copy.person;
  if (person.referred.length === 0) return <Muted>{words.referredEmpty}</Muted>;
  return (
    <TableScroll label={words.referredHeading}>
      <Table>
        <caption>
          {fill(words.referredCaption, { shown: format.count(person.referred.length), total: format.count(person.referredTotal) })}
        </caption>
        <thead>
          <tr>
            <th scope="col">{copy.people.nameColumn}</th>
            <th scope="col">{copy.people.emailColumn}</th>
            <th scope="col">{copy.people.signedUpColumn}</th>
            <th scope="col">{copy.people.stateColumn}</th>
            <th scope="col">{words.counted}</th>
          </tr>
        </thead>
        <tbody>
          {person.referred.map((friend) => (
            <tr key={friend.id}>
              <td>
                <PersonLink href={routeHash({ view: "person", id: friend.id })}>
                  {friend.firstName} {friend.lastName}
                </PersonLink>
              </td>
              <td>{friend.email}</td>
              <td>{format.dateTime(friend.createdAt)}</td>
              <td>
                <p>{standingOf(copy, friend)}</p>
                <Marks copy={copy} flags={friend.flags} hold={friend.referralHold} />
              </td>
              <td>{friend.counted ? words.countedYes : words.countedNo}</td>
            </tr>
          ))}
        </tbody>
      </Table>
    </TableScroll>
  );
}

const Properties = styled.ul`
  margin: 0;
  padding: 0;
  list-style: none;
`;
