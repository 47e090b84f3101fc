import { useId } from "react";
import { graphql, Link } from "gatsby";
import styled from "styled-components";
import { fillCounts, formatCount, splitAround } from "../referrals/numbers";
import type { Standing } from "../referrals/standing";
import { LEADERBOARD_PATH } from "../../shared/routes";
import { GiveawayRules } from "./GiveawayRules";
import { ShareControls } from "./ShareControls";
import { Note, NoteCover } from "../ui/Note";
import { theme } from "../styles/theme";

/** What the panel reads from the page's query (fragment ReferralPanelContent below). */
export type ReferralPanelContent = Queries.ReferralPanelContentFragment;

/**
 * What the panel shows:
 * - `pending`: the standing is not known yet (the prerendered HTML, and until it arrives);
 * - `ready`: the standing;
 * - `message`: a text from the content instead of the standing (a missing or unknown status link, the service unreachable).
 */
export type ReferralPanelView = { kind: "pending" } | { kind: "ready"; standing: Standing } | { kind: "message"; text: string };

export interface ReferralPanelProps {
  content: ReferralPanelContent;
  view: ReferralPanelView;
  /** Shown instead of the standing to visitors whose browser runs no JavaScript. */
  noScriptText: string;
}

/** Shown in place of a number that is not known yet (and never read out: the panel is aria-busy then). */
const UNKNOWN = "—";

/** The placeholder of `referrals.position`. */
const POSITION_PLACEHOLDER = "{position}";

/**
 * The visitor's standing in the referral program. No layout shift: every number has its place in the
 * prerendered HTML (a dash until known, tabular digits), and a message covers the standing's kept space.
 */
export function ReferralPanel({ content, view, noScriptText }: ReferralPanelProps) {
  const { site, referrals } = content;
  const headingId = useId();
  const standing = view.kind === "ready" ? view.standing : null;
  const count = (value: number | undefined) => (value === undefined ? UNKNOWN : formatCount(value, site.language));
  const [before, after] = splitAround(referrals.position, POSITION_PLACEHOLDER);
  // A number sign written right before the placeholder ("#{position}") belongs to the number's line.
  const sign = /#\s*$/.test(before) ? "#" : "";
  const lead = sign ? before.replace(/#\s*$/, "") : before;
  // A number that arrives is a new element, not the dash's text changed: nothing that was on screen moves.
  const figureKey = standing ? "known" : "unknown";
  const intro = fillCounts(referrals.intro, { places: referrals.placesPerReferral, entries: referrals.entriesPerReferral }, site.language);

  return (
    <Panel aria-labelledby={headingId} aria-busy={view.kind === "pending"}>
      <Reserved>
        <StandingBox data-referral-standing="" data-covered={view.kind === "message"}>
          <Headline id={headingId}>
            {lead}
            <Figure key={figureKey}>
              {sign}
              {count(standing?.position)}
            </Figure>
            {after}
          </Headline>
          <Intro>{intro}</Intro>
          <Tiles>
            <Tile>
              <TileFigure key={figureKey}>{count(standing?.referrals)}</TileFigure>
              <Caption>{referrals.friendsJoined}</Caption>
            </Tile>
            <Tile>
              <TileFigure key={figureKey}>{count(standing?.entries)}</TileFigure>
              <Caption>{referrals.giveawayEntries}</Caption>
            </Tile>
          </Tiles>
          <ShareControls content={content} link={standing?.referralUrl ?? null} />
          <PageLinks>
            <Link to={LEADERBOARD_PATH}>{referrals.leaderboardLink}</Link>
          </PageLinks>
        </StandingBox>
        {view.kind === "message" ? <NoteCover role="status">{view.text}</NoteCover> : null}
        <noscript>
          <Note>{noScriptText}</Note>
          {/* Without JavaScript the standing never arrives; nothing changes after load, so the note simply takes its place. */}
          <style>{"[data-referral-standing]{display:none}"}</style>
        </noscript>
      </Reserved>
      <GiveawayRules content={content} />
    </Panel>
  );
}

const Panel = styled.section`
  display: grid;
  justify-items: center;
  gap: ${theme.space.xxl};
  width: 100%;
`;

/** The standing's box: a message covers it instead of replacing it, so the page below never moves. */
const Reserved = styled.div`
  position: relative;
  display: grid;
  width: 100%;
`;

const StandingBox = styled.div`
  display: grid;
  justify-items: center;
  gap: ${theme.space.xl};
  &[data-covered="true"] {
    visibility: hidden;
  }
`;

/** A message in the reserved box's place, for visitors without JavaScript (nothing changes after load, so it need not cover anything). */
const Headline = styled.h2`
  margin: 0;
  font-size: clamp(1.4rem, 5.5vw, 1.9rem);
  line-height: 1.2;
`;

/**
 * The place in line on a line of its own, in one line box of a fixed height: however many digits
 * it has, the headline's other words and everything below stay where the dash left them.
 */
const Figure = styled.span`
  display: block;
  font-family: ${theme.fonts.mono};
  font-size: clamp(2.5rem, 12vw, 3.5rem);
  font-weight: 800;
  line-height: 1.15;
  font-variant-numeric: tabular-nums;
  white-space: nowrap;
  color: ${theme.colors.accent};
`;

const Intro = styled.p`
  margin: 0;
  max-width: 46ch;
  color: ${theme.colors.textMuted};
`;

const Tiles = styled.div`
  display: grid;
  grid-template-columns: repeat(2, minmax(0, 1fr));
  gap: ${theme.space.md};
  width: 100%;
`;

const Tile = styled.div`
  display: grid;
  justify-items: center;
  padding: ${theme.space.lg} ${theme.space.xs};
  border: 1px solid ${theme.colors.border};
  border-radius: ${theme.radii.medium};
  background: ${theme.colors.surface};
`;

const TileFigure = styled.span`
  font-family: ${theme.fonts.mono};
  font-size: clamp(1.5rem, 6vw, 2rem);
  font-weight: 800;
  line-height: 1.1;
  font-variant-numeric: tabular-nums;
`;

const Caption = styled.span`
  margin-top: ${theme.space.hairline};
  font-size: 0.8rem;
  letter-spacing: 0.08em;
  text-transform: uppercase;
  color: ${theme.colors.textMuted};
`;

const PageLinks = styled.p`
  display: flex;
  flex-wrap: wrap;
  justify-content: center;
  gap: ${theme.space.sm} ${theme.space.xxl};
  margin: 0;
  a {
    font-weight: 600;
    text-underline-offset: 3px;
  }
`;

/** A message that covers the reserved box, which keeps its size: nothing below it moves. */
export const query = graphql`
  fragment ReferralPanelContent on SiteContent {
    ...ShareControlsContent
    ...GiveawayRulesContent
    site {
      language
    }
    referrals {
      placesPerReferral
      entriesPerReferral
      position
      intro
      friendsJoined
      giveawayEntries
      leaderboardLink
    }
  }
`;
