import { lazy, startTransition, Suspense, useState } from "react";
import styled from "styled-components";

interface BadgeCopy {
  readonly label: string;
  readonly tooltip: string;
}

/** Badge copy (content/site.yaml → home.badges). */
export interface BadgesCopy {
  readonly ssl: BadgeCopy;
  readonly gdpr: BadgeCopy;
}

/** The badges in display order. */
export const BADGE_KEYS = ["ssl", "gdpr"] as const;
export type BadgeKey = (typeof BADGE_KEYS)[number];

// Radix Tooltip (with its positioning engine) is the largest library on the page and only matters once a
// visitor points at or focuses a badge, so it is loaded then, not on first visit.
const TooltipBadges = lazy(() => import("./TooltipBadges"));

/**
 * The 'SSL Secured' and 'GDPR Compliant' badges (spec §2), each explained by a
 * one-sentence Radix tooltip (700 ms open delay, 300 ms skip delay, spec §9).
 * The badges render as plain buttons; the first hover or focus loads the tooltips
 * and hands focus over to the same badge.
 *
 * The switch is a transition: React keeps the plain badges (and the keyboard focus
 * on them) until the tooltip code has arrived, instead of replacing them with a
 * fallback copy at once, which dropped focus to <body> for as long as the code took
 * to load (WCAG 2.4.3). Blur forgets the badge, so a visitor who has tabbed on is
 * not pulled back when the code arrives.
 */
export function Badges({ copy }: { copy: BadgesCopy }) {
  const [activated, setActivated] = useState<{ focus: BadgeKey | null } | null>(null);
  const activate = (update: (current: typeof activated) => typeof activated) => startTransition(() => setActivated(update));
  const plain = (
    <BadgeList>
      {BADGE_KEYS.map((key) => (
        <li key={key}>
          <BadgeButton
            type="button"
            onPointerEnter={() => activate((current) => current ?? { focus: null })}
            onFocus={() => activate(() => ({ focus: key }))}
            onBlur={() => activate(() => ({ focus: null }))}
          >
            <BadgeIcon badge={key} />
            {copy[key].label}
          </BadgeButton>
        </li>
      ))}
    </BadgeList>
  );
  return <Suspense fallback={plain}>{activated ? <TooltipBadges copy={copy} focusOnMount={activated.focus} /> : plain}</Suspense>;
}

const ICONS: Record<BadgeKey, React.ReactNode> = {
  ssl: <path d="M7 10V7a5 5 0 0 1 10 0v3M5 10h14v11H5z" fill="none" stroke="currentColor" strokeWidth="2" strokeLinejoin="round" />,
  gdpr: (
    <path
      d="M12 2 4 5v6c0 5 3.4 9.4 8 11 4.6-1.6 8-6 8-11V5l-8-3Zm-3.5 10 2.5 2.5 4.5-5"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinejoin="round"
      strokeLinecap="round"
    />
  ),
};

/** A badge's inline SVG icon (decorative). */
export function BadgeIcon({ badge }: { badge: BadgeKey }) {
  return (
    <svg aria-hidden="true" width="16" height="16" viewBox="0 0 24 24">
      {ICONS[badge]}
    </svg>
  );
}

export const BadgeList = styled.ul`
  display: flex;
  flex-wrap: wrap;
  justify-content: center;
  gap: 10px;
  margin: 0;
  padding: 0;
  list-style: none;
`;

export const BadgeButton = styled.button`
  display: inline-flex;
  align-items: center;
  gap: 6px;
  min-height: 36px;
  padding: 6px 12px;
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radii.pill};
  background: ${({ theme }) => theme.colors.surfaceRaised};
  color: ${({ theme }) => theme.colors.accent};
  font: inherit;
  font-size: 0.85rem;
  font-weight: 600;
  cursor: help;
`;
