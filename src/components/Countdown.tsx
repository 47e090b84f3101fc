import { graphql } from "gatsby";
import styled from "styled-components";
import { useCountdown } from "../countdown/useCountdown";
import type { TimeLeft } from "../countdown/timeLeft";
import { theme } from "../styles/theme";

/** What the countdown reads from the page's query (fragment CountdownContent below). */
export type CountdownContent = Queries.CountdownContentFragment;

const UNITS: (keyof TimeLeft)[] = ["days", "hours", "minutes", "seconds"];
/** Shown before the browser's clock is known (no JavaScript yet). */
const UNKNOWN = "--";

/**
 * The launch countdown (product rule 20). Not a live region: screen readers get the label with the
 * launch date instead of an announcement every second. Tabular, fixed-width digits: no layout shift.
 * After the launch moment it stays at zero, and a site built after it shows the content's
 * `afterLaunch` line beneath, in the HTML from the start (no layout shift, no script of its own).
 */
export function Countdown({ content }: { content: CountdownContent }) {
  const {
    home: { countdown: copy },
    derived: { countdownLabel, launchAtMs, builtAtMs },
  } = content;
  const left = useCountdown(launchAtMs, builtAtMs);
  return (
    <>
      <Units role="timer" aria-label={countdownLabel}>
        {UNITS.map((unit) => (
          <Unit key={unit}>
            <Value>{left ? String(left[unit]).padStart(2, "0") : UNKNOWN}</Value>
            <Caption>{copy[unit]}</Caption>
          </Unit>
        ))}
      </Units>
      {builtAtMs >= launchAtMs && copy.afterLaunch ? <p>{copy.afterLaunch}</p> : null}
    </>
  );
}

const Units = styled.div`
  display: grid;
  grid-template-columns: repeat(4, minmax(0, 1fr));
  gap: ${theme.space.md};
  width: 100%;
  max-width: 420px;
  margin: 0 auto;
`;

const Unit = styled.div`
  display: grid;
  justify-items: center;
  padding: ${theme.space.lg} ${theme.space.xxs} ${theme.space.md};
  border: 1px solid ${theme.colors.border};
  border-radius: ${theme.radii.medium};
  background: ${theme.colors.surface};
`;

const Value = styled.span`
  min-width: 3ch;
  font-family: ${theme.fonts.mono};
  font-size: clamp(1.6rem, 7vw, 2.25rem);
  font-weight: 800;
  line-height: 1.1;
  font-variant-numeric: tabular-nums;
  text-align: center;
  color: ${theme.colors.text};
`;

const Caption = styled.span`
  margin-top: ${theme.space.hairline};
  font-size: 0.8rem;
  letter-spacing: 0.08em;
  text-transform: uppercase;
  color: ${theme.colors.textMuted};
`;

export const query = graphql`
  fragment CountdownContent on SiteContent {
    home {
      countdown {
        days
        hours
        minutes
        seconds
        afterLaunch
      }
    }
    derived {
      countdownLabel
      launchAtMs
      builtAtMs
    }
  }
`;
