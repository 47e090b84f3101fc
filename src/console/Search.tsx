/** Find a person by any spelling of their address or by referral code; the query lives in the fragment (#search/<q>). */
import { useEffect, useId, useState } from "react";
import styled from "styled-components";
import { CONSOLE_PEOPLE_ENDPOINT } from "../../shared/console";
import { theme } from "../styles/theme";
import { withQuery } from "./api";
import type { ConsoleContent } from "./content";
import type { ConsoleFormat } from "./format";
import { Button, Failure, Input, Loading, Muted, Section, SectionHeading } from "./parts";
import { PeopleTable } from "./PeopleTable";
import type { ConsoleRoute } from "./route";
import { useAnswer } from "./useAnswer";
import type { PeopleAnswer } from "../../shared/api/console";

type Copy = ConsoleContent["console"];

export function Search({
  copy,
  format,
  query,
  go,
}: {
  copy: Copy;
  format: ConsoleFormat;
  query: string;
  go: (route: ConsoleRoute) => void;
}) {
  const words = copy.search;
  const [text, setText] = useState(query);
  const ids = { input: useId(), help: useId() };
  useEffect(() => setText(query), [query]);
  const { state, reload } = useAnswer<PeopleAnswer>(query ? withQuery(CONSOLE_PEOPLE_ENDPOINT, { q: query }) : null);

  return (
    <Section aria-labelledby="search-heading">
      <SectionHeading id="search-heading">{words.heading}</SectionHeading>
      <Form
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          const q = text.trim();
          if (q === query) reload();
          else go({ view: "search", query: q });
        }}
      >
        <label htmlFor={ids.input}>{words.label}</label>
        <Row>
          <SearchInput
            id={ids.input}
            type="search"
            value={text}
            onChange={(event) => setText(event.target.value)}
            aria-describedby={ids.help}
          />
          <Button type="submit">{words.submit}</Button>
        </Row>
        <Muted id={ids.help}>{words.help}</Muted>
      </Form>
      {!query ? null : state.kind === "loading" ? (
        <Loading copy={copy} />
      ) : state.kind === "failed" && state.error.key === "parameterInvalid" ? (
        <Muted role="status">{words.invalid}</Muted>
      ) : state.kind === "failed" ? (
        <Failure copy={copy} error={state.error} onRetry={reload} />
      ) : state.answer.people.length === 0 ? (
        <Muted role="status">{words.empty}</Muted>
      ) : (
        <PeopleTable copy={copy} format={format} caption={words.caption} people={state.answer.people} />
      )}
    </Section>
  );
}

const Form = styled.form`
  display: grid;
  gap: ${theme.space.xs};
`;

const Row = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${theme.space.sm};
`;

const SearchInput = styled(Input)`
  flex: 1 1 16rem;
`;
