/** A table of people (search results, the review queue): name linking to their page, address, code, signup, standing. */
import React from "react";
import type { ConsoleContent } from "./content";
import type { ConsoleFormat } from "./format";
import { CaptionedTable, Marks, PersonLink } from "./parts";
import { routeHash } from "./route";
import type { PersonSummary } from "../../shared/api/console";

type Copy = ConsoleContent["console"];

/** A person's standing in the content's words: disqualified, or confirmed or not. */
export function standingOf(copy: Copy, person: Pick<PersonSummary, "confirmedAt" | "disqualifiedAt">): string {
  if (person.disqualifiedAt) return copy.people.disqualified;
  return person.confirmedAt ? copy.people.confirmed : copy.people.notConfirmed;
}

export function PeopleTable({
  copy,
  format,
  caption,
  people,
  actions,
}: {
  copy: Copy;
  format: ConsoleFormat;
  caption: string;
  people: readonly PersonSummary[];
  /** A last column of buttons per person (the review queue's approve and disqualify). */
  actions?: (person: PersonSummary) => React.ReactNode;
}) {
  const words = copy.people;
  return (
    <CaptionedTable caption={caption}>
      <thead>
        <tr>
          <th scope="col">{words.nameColumn}</th>
          <th scope="col">{words.emailColumn}</th>
          <th scope="col">{words.codeColumn}</th>
          <th scope="col">{words.signedUpColumn}</th>
          <th scope="col">{words.stateColumn}</th>
          {actions ? <th scope="col">{copy.person.actionsHeading}</th> : null}
        </tr>
      </thead>
      <tbody>
        {people.map((person) => (
          <tr key={person.id}>
            <td>
              <PersonLink href={routeHash({ view: "person", id: person.id })}>
                {person.firstName} {person.lastName}
              </PersonLink>
            </td>
            <td>{person.email}</td>
            <td>{person.referralCode ?? copy.none}</td>
            <td>{format.dateTime(person.createdAt)}</td>
            <td>
              <p>{standingOf(copy, person)}</p>
              <Marks copy={copy} flags={person.flags} hold={person.referralHold} />
            </td>
            {actions ? <td>{actions(person)}</td> : null}
          </tr>
        ))}
      </tbody>
    </CaptionedTable>
  );
}
