/**
 * The review queue: everyone flagged or held, oldest first, approved or disqualified in place (the row leaves the
 * queue once the action is done), a page at a time ("show more" follows the answer's cursor).
 */
import { useEffect, useState } from "react";
import { CONSOLE_REVIEW_ENDPOINT } from "../../shared/console";
import { PersonActionDialog } from "./ActionDialog";
import { ConsoleError, getConsole, withQuery } from "./api";
import { fill } from "./format";
import { Button, ButtonRow, Failure, Loading, Muted, type ScreenProps, Section, SectionHeading } from "./parts";
import { PeopleTable } from "./PeopleTable";
import { useAnswer } from "./useAnswer";
import type { PersonSummary, ReviewAnswer } from "../../shared/api/console";

/**
 * The people flagged or held and not reviewed yet, newest first, a page at a time, each with approve and disqualify
 * (for an operator; a viewer gets the queue without its buttons).
 */
export function ReviewQueue({ copy, format, announce, canAct }: ScreenProps) {
  const words = copy.review;
  const { state, reload, people, setPeople, next, moreError, more } = useReviewPages();

  const actions = (person: PersonSummary) => (
    <ButtonRow>
      {(["approve", "disqualify"] as const).map((action) => (
        <PersonActionDialog
          key={action}
          copy={copy}
          person={{ id: person.id, name: `${person.firstName} ${person.lastName}`, firstName: person.firstName, lastName: person.lastName }}
          action={action}
          onDone={() => {
            setPeople((current) => current.filter((row) => row.id !== person.id));
            announce(fill(copy.dialog.done, { action: copy.actions[action] }));
          }}
        />
      ))}
    </ButtonRow>
  );

  return (
    <Section aria-labelledby="review-heading">
      <SectionHeading id="review-heading">{words.heading}</SectionHeading>
      <Muted>{words.intro}</Muted>
      {state.kind === "loading" ? (
        <Loading copy={copy} />
      ) : state.kind === "failed" ? (
        <Failure copy={copy} error={state.error} onRetry={reload} />
      ) : people.length === 0 ? (
        <Muted>{words.empty}</Muted>
      ) : (
        <PeopleTable copy={copy} format={format} caption={words.caption} people={people} actions={canAct ? actions : undefined} />
      )}
      {moreError ? <Failure copy={copy} error={moreError} /> : null}
      {state.kind === "ready" && next ? (
        <Button type="button" onClick={() => void more()}>
          {words.more}
        </Button>
      ) : null}
    </Section>
  );
}

/** The review queue's pages: the first as useAnswer loads it, then `more` appends the next one (its failure kept apart). */
function useReviewPages() {
  const { state, reload } = useAnswer<ReviewAnswer>(CONSOLE_REVIEW_ENDPOINT);
  const [people, setPeople] = useState<PersonSummary[]>([]);
  const [next, setNext] = useState<string | null>(null);
  const [moreError, setMoreError] = useState<ConsoleError | null>(null);
  useEffect(() => {
    if (state.kind !== "ready") return;
    setPeople(state.answer.people);
    setNext(state.answer.next);
  }, [state]);

  const more = async () => {
    if (!next) return;
    setMoreError(null);
    try {
      const page = await getConsole<ReviewAnswer>(withQuery(CONSOLE_REVIEW_ENDPOINT, { before: next }));
      setPeople((current) => [...current, ...page.people]);
      setNext(page.next);
    } catch (error) {
      setMoreError(error instanceof ConsoleError ? error : new ConsoleError("unavailable", null));
    }
  };

  return { state, reload, people, setPeople, next, moreError, more };
}
