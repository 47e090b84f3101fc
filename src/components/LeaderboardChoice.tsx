import { graphql } from "gatsby";
import styled from "styled-components";
import { useLeaderboardChoice } from "../referrals/queries";
import { Failure, OutlineButton as Button } from "./StatusParts";

export interface LeaderboardChoiceProps {
  content: Queries.LeaderboardChoiceContentFragment;
  /** The status page's token; null until it is read. */
  token: string | null;
  /** Whether the person is shown on the leaderboard now; null until their status is read. */
  shown: boolean | null;
}

/**
 * On the status page, below the standing: whether the person is on the public leaderboard, and the button that shows
 * or hides them (nobody is shown until they choose it). Its room is kept, hidden, until the status is read, so
 * nothing below it moves when it appears.
 */
export function LeaderboardChoice({ content, token, shown }: LeaderboardChoiceProps) {
  const copy = content.status.leaderboardChoice;
  const ready = token !== null && shown !== null;
  return (
    <Section data-covered={!ready} aria-hidden={!ready}>
      {ready ? (
        <ChoiceControls copy={copy} token={token} shown={shown} />
      ) : (
        <>
          <Note>{copy.hiddenNote}</Note>
          <Button type="button" disabled>
            {copy.show}
          </Button>
        </>
      )}
    </Section>
  );
}

function ChoiceControls({
  copy,
  token,
  shown,
}: {
  copy: LeaderboardChoiceProps["content"]["status"]["leaderboardChoice"];
  token: string;
  shown: boolean;
}) {
  const choice = useLeaderboardChoice(token);
  return (
    <>
      <Note role="status">{shown ? copy.shownNote : copy.hiddenNote}</Note>
      <Button type="button" disabled={choice.isPending} onClick={() => choice.mutate(!shown)}>
        {shown ? copy.hide : copy.show}
      </Button>
      {choice.isError ? <Failure role="alert">{copy.failed}</Failure> : null}
    </>
  );
}

const Section = styled.section`
  display: grid;
  justify-items: center;
  gap: ${({ theme }) => theme.space.md};
  width: 100%;
  text-align: center;
  &[data-covered="true"] {
    visibility: hidden;
  }
`;

const Note = styled.p`
  margin: 0;
  font-size: 0.95rem;
`;

export const query = graphql`
  fragment LeaderboardChoiceContent on SiteContent {
    status {
      leaderboardChoice {
        shownNote
        hiddenNote
        show
        hide
        failed
      }
    }
  }
`;
