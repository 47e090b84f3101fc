import { lazy, startTransition, Suspense, useRef, useState } from "react";
import { graphql } from "gatsby";
import { BADGE_KEYS, BadgeButton, BadgeIcon, BadgeList, type BadgeKey } from "./BadgeParts";

// Radix Tooltip (with its positioning engine) is the largest library on the page and only matters once a
// visitor points at or focuses a badge, so it is loaded then, not on first visit.
const TooltipBadges = lazy(() => import("./TooltipBadges"));

/**
 * The trust badges (product rules 1, 25): plain buttons until the first hover or focus loads the
 * tooltips. The switch is a transition so the plain badges keep focus until the code arrives
 * (a fallback would drop focus to <body>, WCAG 2.4.3). Which badge has focus is kept by the focus
 * events themselves, not by a render: the tooltips take it over as they replace the plain badges,
 * whenever that is, so a visitor who has tabbed on (or away) meanwhile is never pulled back.
 */
export function Badges({ content }: { content: Queries.BadgesContentFragment }) {
  const copy = content.home.badges;
  const [activated, setActivated] = useState(false);
  const focused = useRef<BadgeKey | null>(null);
  const activate = () => startTransition(() => setActivated(true));
  const plain = (
    <BadgeList>
      {BADGE_KEYS.map((key) => (
        <li key={key}>
          <BadgeButton
            type="button"
            onPointerEnter={activate}
            onFocus={() => {
              focused.current = key;
              activate();
            }}
            onBlur={() => {
              focused.current = null;
            }}
          >
            <BadgeIcon badge={key} />
            {copy[key].label}
          </BadgeButton>
        </li>
      ))}
    </BadgeList>
  );
  return <Suspense fallback={plain}>{activated ? <TooltipBadges copy={copy} focused={focused} /> : plain}</Suspense>;
}

export const query = graphql`
  fragment BadgesContent on SiteContent {
    home {
      badges {
        ssl {
          label
          tooltip
        }
        gdpr {
          label
          tooltip
        }
      }
    }
  }
`;
