/** What the plain badges and the tooltip badges share, kept apart from both so that neither imports the other. */
import styled from "styled-components";
import { theme } from "../styles/theme";

/** Each badge's label and tooltip, as fragment BadgesContent (Badges.tsx) selects them. */
export type BadgesCopy = Queries.BadgesContentFragment["home"]["badges"];

/** The badges in display order. */
export const BADGE_KEYS = ["ssl", "gdpr"] as const;
export type BadgeKey = (typeof BADGE_KEYS)[number];

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
  gap: ${theme.space.md};
  margin: 0;
  padding: 0;
  list-style: none;
`;

// Its full look here, on no shared button: built on one, its Radix tooltip did not open on keyboard focus (badges test).
export const BadgeButton = styled.button`
  display: inline-flex;
  align-items: center;
  gap: ${theme.space.xs};
  min-height: 36px;
  padding: ${theme.space.xs} ${theme.space.lg};
  border: 1px solid ${theme.colors.border};
  border-radius: ${theme.radii.pill};
  background: ${theme.colors.surfaceRaised};
  color: ${theme.colors.accent};
  font: inherit;
  font-size: 0.85rem;
  font-weight: 600;
  cursor: help;
`;
