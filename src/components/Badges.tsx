import { lazy, startTransition, Suspense, useState } from "react";
import { graphql } from "gatsby";
import { BADGE_KEYS, BadgeButton, BadgeIcon, BadgeList, type BadgeKey } from "./BadgeParts";

// Radix Tooltip (with its positioning engine) is the largest library on the page and only matters once a
// visitor points at or focuses a badge, so it is loaded then, not on first visit.
const TooltipBadges = lazy(() => import("./TooltipBadges"));

/**
 * The SSL and GDPR trust badges (product rule 1), each explained by a one-sentence
 * Radix tooltip (700 ms open delay, 300 ms skip delay, product rule 25).
 * The badges render as plain buttons; the first hover or focus loads the tooltips
 * and hands focus over to the same badge.
 *
 * The switch is a transition: React keeps the plain badges (and the keyboard focus
 * on them) until the tooltip code has arrived, instead of replacing them with a
 * fallback copy at once, which dropped focus to <body> for as long as the code took
 * to load (WCAG 2.4.3). Blur forgets the badge, so a visitor who has tabbed on is
 * not pulled back when the code arrives.
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
