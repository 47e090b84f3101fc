import React from "react";
import { graphql } from "gatsby";
import styled, { css, keyframes } from "styled-components";
import { theme } from "../styles/theme";

/** Outline sports icons drawn inline (no icon font, no extra request). 24×24 viewBox. */
const SPORTS_ICONS: React.ReactNode[] = [
  // basketball
  <g key="b">
    <circle cx="12" cy="12" r="10" />
    <path d="M2 12h20M12 2v20M5 5c3 3 3 11 0 14M19 5c-3 3-3 11 0 14" />
  </g>,
  // american football
  <g key="f">
    <ellipse cx="12" cy="12" rx="10" ry="6" transform="rotate(-35 12 12)" />
    <path d="M9 15l6-6M10 11l1 1M12 9l1 1M11 13l1 1" />
  </g>,
  // soccer ball
  <g key="s">
    <circle cx="12" cy="12" r="10" />
    <path d="M12 7l4 3-1.5 4.5h-5L8 10l4-3ZM12 2v5M16 10l5-2M14.5 14.5l3 4.5M9.5 14.5l-3 4.5M8 10 3 8" />
  </g>,
  // baseball
  <g key="bb">
    <circle cx="12" cy="12" r="10" />
    <path d="M6 4.5c2.5 4 2.5 11 0 15M18 4.5c-2.5 4-2.5 11 0 15" />
  </g>,
  // trophy
  <g key="t">
    <path d="M7 4h10v5a5 5 0 0 1-10 0V4ZM7 6H4a3 3 0 0 0 3 4M17 6h3a3 3 0 0 1-3 4M12 14v4M8 21h8M9 18h6" />
  </g>,
  // hockey stick and puck
  <g key="h">
    <path d="M8 2l6 15h5v3h-7L5 3" />
    <ellipse cx="6" cy="19" rx="3" ry="1.5" />
  </g>,
];

/** Where each decoration floats: percent of the viewport, seconds of animation (decoration only). */
const SPOTS = [
  { top: 8, left: 6, duration: 9, delay: 0 },
  { top: 18, left: 84, duration: 11, delay: -3 },
  { top: 42, left: 3, duration: 10, delay: -6 },
  { top: 60, left: 90, duration: 12, delay: -2 },
  { top: 78, left: 10, duration: 9, delay: -5 },
  { top: 88, left: 72, duration: 13, delay: -1 },
  { top: 30, left: 70, duration: 10, delay: -7 },
  { top: 70, left: 40, duration: 14, delay: -4 },
  { top: 4, left: 46, duration: 12, delay: -8 },
  { top: 52, left: 22, duration: 11, delay: -9 },
  { top: 94, left: 30, duration: 10, delay: -2 },
  { top: 36, left: 95, duration: 13, delay: -5 },
];

/** The decoration's odds and its pause button's labels, as fragment FloatingDecorContent (below) selects them. */
export type FloatingDecorCopy = Queries.FloatingDecorContentFragment["decorations"];

/** The floating decoration (product rule 1): hidden from assistive technology, `transform` only, still under reduced motion. */
export function FloatingDecor({ odds, paused }: { odds: readonly string[]; paused: boolean }) {
  const items = SPOTS.map((spot, index) =>
    index % 2 === 0 ? (
      <Icon key={index} style={position(spot)} viewBox="0 0 24 24" width="40" height="40">
        {SPORTS_ICONS[(index / 2) % SPORTS_ICONS.length]}
      </Icon>
    ) : (
      <Odds key={index} style={position(spot)}>
        {odds[Math.floor(index / 2) % odds.length]}
      </Odds>
    ),
  );
  return (
    <Layer aria-hidden="true" data-paused={paused}>
      {items}
    </Layer>
  );
}

/**
 * Pauses the decoration (WCAG 2.2.2: motion that starts by itself and lasts over 5 s needs a pause).
 * In the page's footer, never fixed over the page: last in tab order, it covers nothing at any size or zoom.
 */
export function MotionToggle({ copy, paused, onToggle }: { copy: FloatingDecorCopy; paused: boolean; onToggle: () => void }) {
  return (
    <ToggleButton type="button" onClick={onToggle}>
      <svg aria-hidden="true" width="14" height="14" viewBox="0 0 14 14" fill="currentColor">
        {paused ? <path d="M3 1.5v11l9-5.5z" /> : <path d="M3 1.5h3v11H3zM8 1.5h3v11H8z" />}
      </svg>
      {paused ? copy.playLabel : copy.pauseLabel}
    </ToggleButton>
  );
}

function position({ top, left, duration, delay }: (typeof SPOTS)[number]): React.CSSProperties {
  return { top: `${top}%`, left: `${left}%`, animationDuration: `${duration}s`, animationDelay: `${delay}s` };
}

const float = keyframes`
  0%, 100% { transform: translate3d(0, 0, 0) rotate(0deg); }
  50% { transform: translate3d(0, -18px, 0) rotate(8deg); }
`;

const Layer = styled.div`
  position: fixed;
  inset: 0;
  z-index: ${theme.layers.decoration};
  overflow: hidden;
  pointer-events: none;
  &[data-paused="true"] > * {
    animation-play-state: paused;
  }
`;

const ToggleButton = styled.button`
  display: inline-flex;
  align-items: center;
  gap: ${theme.space.xs};
  border: 1px solid ${theme.colors.border};
  border-radius: ${theme.radii.pill};
  min-height: 32px;
  padding: ${theme.space.xxs} ${theme.space.md};
  background: ${theme.colors.surface};
  color: ${theme.colors.textMuted};
  font: inherit;
  font-size: 0.75rem;
  cursor: pointer;
  &:hover {
    color: ${theme.colors.text};
  }
`;

const floating = css`
  position: absolute;
  opacity: 0.22;
  will-change: transform;
  animation: ${float} 10s ease-in-out infinite;
`;

const Icon = styled.svg`
  ${floating}
  fill: none;
  stroke: ${theme.colors.decoration};
  stroke-width: 1.5;
  stroke-linecap: round;
  stroke-linejoin: round;
`;

const Odds = styled.span`
  ${floating}
  font-family: ${theme.fonts.mono};
  font-size: 1.1rem;
  font-weight: 700;
  color: ${theme.colors.decoration};
`;

export const query = graphql`
  fragment FloatingDecorContent on SiteContent {
    decorations {
      odds
      pauseLabel
      playLabel
    }
  }
`;
