import { type RefObject, useLayoutEffect, useRef } from "react";
import * as Tooltip from "@radix-ui/react-tooltip";
import styled from "styled-components";
import { BADGE_KEYS, BadgeButton, BadgeIcon, BadgeList, type BadgeKey, type BadgesCopy } from "./BadgeParts";
import { theme } from "../styles/theme";

/** A tooltip opens after the pointer rests this long (ms; product rule 25). */
export const TOOLTIP_DELAY_MS = 700;
/** Moving between badges within this time opens the next tooltip at once (ms; product rule 25). */
export const TOOLTIP_SKIP_DELAY_MS = 300;

/**
 * The badges with Radix tooltips, loaded by <Badges>. `focused` names the plain badge that has focus as these replace
 * them (read then, once): that badge's replacement takes the focus over.
 */
export default function TooltipBadges({ copy, focused }: { copy: BadgesCopy; focused: RefObject<BadgeKey | null> }) {
  const refs = useRef<Partial<Record<BadgeKey, HTMLButtonElement | null>>>({});
  // A layout effect, in the same task as the swap that removed the focused plain badge: with a passive effect, focus sat
  // on <body> until after the paint, where the next key press found it. Once, on mount (`focused` is the same ref for
  // the badges' life): a later render must not move focus the visitor has moved on since.
  useLayoutEffect(() => {
    const key = focused.current;
    if (key) refs.current[key]?.focus();
  }, [focused]);

  return (
    <Tooltip.Provider delayDuration={TOOLTIP_DELAY_MS} skipDelayDuration={TOOLTIP_SKIP_DELAY_MS}>
      <BadgeList>
        {BADGE_KEYS.map((key) => (
          <li key={key}>
            <Tooltip.Root>
              <Tooltip.Trigger asChild>
                <BadgeButton
                  type="button"
                  ref={(element) => {
                    refs.current[key] = element;
                  }}
                >
                  <BadgeIcon badge={key} />
                  {copy[key].label}
                </BadgeButton>
              </Tooltip.Trigger>
              {/* No Tooltip.Portal: portalled to <body>, the tooltip sat outside every landmark (axe: region).
                  Next to its badge it stays in <main>; it is position: fixed, so nothing clips it. */}
              <Content side="top" sideOffset={6}>
                {copy[key].tooltip}
                <Arrow />
              </Content>
            </Tooltip.Root>
          </li>
        ))}
      </BadgeList>
    </Tooltip.Provider>
  );
}

const Content = styled(Tooltip.Content)`
  max-width: 260px;
  padding: ${theme.space.sm} ${theme.space.lg};
  border-radius: ${theme.radii.small};
  background: ${theme.colors.text};
  color: ${theme.colors.background};
  font-size: 0.85rem;
  line-height: 1.4;
  box-shadow: ${theme.shadows.tooltip};
  z-index: ${theme.layers.tooltip};
`;

const Arrow = styled(Tooltip.Arrow)`
  fill: ${theme.colors.text};
`;
