import { lazy, startTransition, Suspense, useState } from "react";
import { graphql } from "gatsby";
import { BADGE_KEYS, BadgeButton, BadgeIcon, BadgeList, type BadgeKey } from "./BadgeParts";

// Radix Tooltip (with its positioning engine) is the largest library on the page and only matters once a
// visitor points at or focuses a badge, so it is loaded then, not on first visit.
const TooltipBadges = lazy(() => import("./TooltipBadges"));

/**
 * The trust badges (product rules 1, 25): plain buttons until the first hover or focus loads the
 * tooltips. The switch is a transition so the plain badges keep focus until the code arrives
 * (a fallback would drop focus to <body>, WCAG 2.4.3); blur forgets the badge, so a visitor who
 * has tabbed on is not pulled back.
 */
export function Badges({ content }: { content: Queries.BadgesContentFragment }) {
  const copy = content.home.badges;
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
