import { useId, useState } from "react";
import { graphql } from "gatsby";
import styled from "styled-components";
import { pseudonymOf } from "../../shared/giveaway/pseudonym";
import { findLine, LINE_BYTES } from "../../shared/giveaway/list";
import { theme } from "../styles/theme";
import { outlineButton } from "../ui/buttonLooks";

type Found =
  { kind: "idle" } | { kind: "searching" } | { kind: "found"; pseudonym: string; entries: number; line: number } | { kind: "none" };

/** One line of a published list, by a Range request. @throws Error when the site does not answer it */
export async function fetchLine(listUrl: string, index: number): Promise<Uint8Array> {
  const response = await fetch(listUrl, { headers: { range: `bytes=${index * LINE_BYTES}-${(index + 1) * LINE_BYTES - 1}` } });
  if (response.status !== 206) throw new Error(`${listUrl} answered ${response.status} to a Range request`);
  return new Uint8Array(await response.arrayBuffer());
}

/**
 * The box where a visitor finds their line in the published list, by their ticket (the pseudonym is computed on their
 * device) or their pseudonym: a binary search of Range requests, one line each, whatever the list's size.
 */
export function DrawLookup({
  content,
  drawId,
  listUrl,
  n,
}: {
  content: Queries.DrawLookupContentFragment;
  drawId: string;
  listUrl: string;
  n: number;
}) {
  const { draw } = content;
  const ids = { input: useId(), help: useId() };
  const [query, setQuery] = useState("");
  const [found, setFound] = useState<Found>({ kind: "idle" });

  async function find() {
    const typed = query.trim().toLowerCase();
    setFound({ kind: "searching" });
    try {
      const pseudonym = /^[0-9a-f]{16}$/.test(typed) ? typed : await pseudonymOf(drawId, typed);
      const line = await findLine((index) => fetchLine(listUrl, index), n, pseudonym);
      setFound(line ? { kind: "found", pseudonym, entries: line.entrant.entries, line: line.index + 1 } : { kind: "none" });
    } catch {
      setFound({ kind: "none" });
    }
  }

  return (
    <Form
      onSubmit={(event) => {
        event.preventDefault();
        void find();
      }}
    >
      <label htmlFor={ids.input}>{draw.findLabel}</label>
      <Row>
        <input
          id={ids.input}
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          aria-describedby={ids.help}
          autoComplete="off"
          spellCheck={false}
        />
        <button type="submit" disabled={found.kind === "searching"}>
          {draw.findButton}
        </button>
      </Row>
      <Help id={ids.help}>{draw.findHelp.replace("{draw}", drawId)}</Help>
      <p role="status">
        {found.kind === "found"
          ? draw.found
              .replace("{pseudonym}", found.pseudonym)
              .replace("{line}", String(found.line))
              .replace("{entries}", String(found.entries))
          : found.kind === "none"
            ? draw.findNoMatch
            : ""}
      </p>
    </Form>
  );
}

const Form = styled.form`
  display: grid;
  gap: ${theme.space.xs};
  width: 100%;
  p {
    margin: 0;
    overflow-wrap: anywhere;
  }
  input {
    flex: 1;
    min-height: 44px;
    padding: ${theme.space.sm} ${theme.space.md};
    border: 1px solid ${theme.colors.inputBorder};
    border-radius: ${theme.radii.small};
    background: ${theme.colors.surface};
    color: ${theme.colors.text};
    font: inherit;
    font-family: ${theme.fonts.mono};
  }
  button {
    ${outlineButton}
    padding: ${theme.space.sm} ${theme.space.lg};
  }
`;

const Row = styled.div`
  display: flex;
  gap: ${theme.space.sm};
`;

const Help = styled.p`
  font-size: 0.85rem;
  color: ${theme.colors.textMuted};
`;

export const query = graphql`
  fragment DrawLookupContent on SiteContent {
    draw {
      findLabel
      findHelp
      findButton
      found
      findNoMatch
    }
  }
`;
