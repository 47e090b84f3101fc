import styled from "styled-components";
import { useCountdown } from "../countdown/useCountdown";
import type { TimeLeft } from "../countdown/timeLeft";

/** Unit captions (content/site.yaml → home.countdown). */
export interface CountdownCopy {
  readonly days: string;
  readonly hours: string;
  readonly minutes: string;
  readonly seconds: string;
}

export interface CountdownProps {
  copy: CountdownCopy;
  /** Accessible name naming the launch date (derived.countdownLabel). */
  label: string;
  /** Launch moment, ms since the epoch. */
  launchAtMs: number;
  /** Build time, ms since the epoch (see useCountdown). */
  builtAtMs: number;
}

const UNITS: (keyof TimeLeft)[] = ["days", "hours", "minutes", "seconds"];
/** Shown before the browser's clock is known (no JavaScript yet). */
const UNKNOWN = "--";

/**
 * Launch countdown in days, hours, min, sec (spec §2, §4), ticking every second.
 * Not a live region: screen readers get the label with the launch date instead of
 * an announcement every second. Digits are tabular and fixed-width (no layout shift).
 */
export function Countdown({ copy, label, launchAtMs, builtAtMs }: CountdownProps) {
  const left = useCountdown(launchAtMs, builtAtMs);
  return (
    <Units role="timer" aria-label={label}>
      {UNITS.map((unit) => (
        <Unit key={unit}>
          <Value>{left ? String(left[unit]).padStart(2, "0") : UNKNOWN}</Value>
          <Caption>{copy[unit]}</Caption>
        </Unit>
      ))}
    </Units>
  );
}

const Units = styled.div`
  display: grid;
  grid-template-columns: repeat(4, minmax(0, 1fr));
  gap: 10px;
  width: 100%;
  max-width: 420px;
  margin: 0 auto;
`;

const Unit = styled.div`
  display: grid;
  justify-items: center;
  padding: 12px 4px 10px;
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radii.medium};
  background: ${({ theme }) => theme.colors.surface};
`;

const Value = styled.span`
  min-width: 3ch;
  font-family: ${({ theme }) => theme.fonts.mono};
  font-size: clamp(1.6rem, 7vw, 2.25rem);
  font-weight: 800;
  line-height: 1.1;
  font-variant-numeric: tabular-nums;
  text-align: center;
  color: ${({ theme }) => theme.colors.text};
`;

const Caption = styled.span`
  margin-top: 2px;
  font-size: 0.8rem;
  letter-spacing: 0.08em;
  text-transform: uppercase;
  color: ${({ theme }) => theme.colors.textMuted};
`;
