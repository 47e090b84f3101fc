/**
 * The operator's console app, loaded by /console/ as a chunk of its own: who is signed in (and the local-operator
 * banner on `npm start`), the menu, and the screen the fragment names. Until the session answers, nothing else is
 * asked: every request would fail the same way, and the session's error says why in the content's words.
 */
import { useCallback, useMemo, useState } from "react";
import { VisuallyHidden } from "../ui/VisuallyHidden";
import styled from "styled-components";
import { CONSOLE_SESSION_ENDPOINT } from "../../shared/console";
import { timeZoneName, utcOffsetMinutesOf } from "../../shared/local-days";
import { theme } from "../styles/theme";
import { AuditLog } from "./AuditLog";
import type { ConsoleContent } from "./content";
import { Dashboard } from "./Dashboard";
import { DrawCommit } from "./DrawCommit";
import { Launch } from "./Launch";
import { consoleFormat, fill } from "./format";
import { Failure, Loading, Muted } from "./parts";
import { PersonView } from "./PersonView";
import { ReviewQueue } from "./ReviewQueue";
import { routeHash, useRoute, type ConsoleRoute } from "./route";
import { Search } from "./Search";
import { useAnswer } from "./useAnswer";
import type { SessionAnswer } from "../../shared/api/console";

export interface ConsoleAppProps {
  content: ConsoleContent;
  /** The clock ages are measured against (ms since the epoch); a test's own. */
  nowMs?: () => number;
}

/** The menu's entries, in order, and the screens each is current for. */
const MENU = [
  { view: "dashboard", word: "dashboard" },
  { view: "search", word: "search" },
  { view: "review", word: "review" },
  { view: "audit", word: "audit" },
  { view: "draw", word: "draw" },
  { view: "launch", word: "launch" },
] as const;

export function ConsoleApp({ content, nowMs = Date.now }: ConsoleAppProps) {
  const copy = content.console;
  // Times on the site's clock, the one the dashboard counts its days by (shared/local-days.ts).
  const utcOffsetMinutes = utcOffsetMinutesOf(content.launch.moment);
  const timeZone = timeZoneName(utcOffsetMinutes);
  const format = useMemo(() => consoleFormat(content.site.language, timeZone), [content.site.language, timeZone]);
  const session = useAnswer<SessionAnswer>(CONSOLE_SESSION_ENDPOINT);
  const [route, go] = useRoute();
  const [announcement, setAnnouncement] = useState("");
  const announce = useCallback((text: string) => setAnnouncement(text), []);

  if (session.state.kind === "loading") return <Loading copy={copy} />;
  if (session.state.kind === "failed") return <Failure copy={copy} error={session.state.error} onRetry={session.reload} />;
  const { operator, local, role } = session.state.answer;
  const canAct = role === "operator";

  return (
    <App>
      {local ? <Banner role="note">{fill(copy.localOperator, { operator })}</Banner> : <Muted>{fill(copy.signedInAs, { operator })}</Muted>}
      {canAct ? null : <Banner role="note">{copy.viewerNote}</Banner>}
      <nav aria-label={copy.navigation.label}>
        <Menu>
          {MENU.map((entry) => (
            <li key={entry.view}>
              <MenuLink
                href={routeHash(entry.view === "search" ? { view: "search", query: "" } : { view: entry.view })}
                aria-current={route.view === entry.view ? "page" : undefined}
              >
                {copy.navigation[entry.word]}
              </MenuLink>
            </li>
          ))}
        </Menu>
      </nav>
      <VisuallyHidden role="status">{announcement}</VisuallyHidden>
      <Screen copy={copy} route={route} go={go} format={format} nowMs={nowMs} announce={announce} canAct={canAct} />
    </App>
  );
}

function Screen({
  copy,
  route,
  go,
  format,
  nowMs,
  announce,
  canAct,
}: {
  copy: ConsoleContent["console"];
  route: ConsoleRoute;
  go: (route: ConsoleRoute) => void;
  format: ReturnType<typeof consoleFormat>;
  nowMs: () => number;
  announce: (text: string) => void;
  /** An operator's session; a viewer is offered no action, export, invitation or commitment (the service would refuse them). */
  canAct: boolean;
}) {
  switch (route.view) {
    case "dashboard":
      return <Dashboard copy={copy} format={format} nowMs={nowMs} />;
    case "search":
      return <Search copy={copy} format={format} query={route.query} go={go} />;
    case "person":
      return <PersonView key={route.id} copy={copy} format={format} id={route.id} announce={announce} canAct={canAct} />;
    case "review":
      return <ReviewQueue copy={copy} format={format} announce={announce} canAct={canAct} />;
    case "audit":
      return <AuditLog copy={copy} format={format} />;
    case "draw":
      return <DrawCommit copy={copy} format={format} canAct={canAct} />;
    case "launch":
      return <Launch copy={copy} format={format} announce={announce} canAct={canAct} />;
  }
}

const App = styled.div`
  display: grid;
  gap: ${theme.space.xxl};
  min-width: 0;
`;

const Banner = styled.p`
  margin: 0;
  padding: ${theme.space.lg};
  border: 1px solid ${theme.colors.gold};
  border-radius: ${theme.radii.small};
  color: ${theme.colors.gold};
`;

const Menu = styled.ul`
  display: flex;
  flex-wrap: wrap;
  gap: ${theme.space.sm};
  margin: 0;
  padding: 0;
  list-style: none;
`;

const MenuLink = styled.a`
  display: inline-flex;
  align-items: center;
  min-height: 36px;
  padding: ${theme.space.xs} ${theme.space.lg};
  border: 1px solid ${theme.colors.border};
  border-radius: ${theme.radii.pill};
  color: ${theme.colors.text};
  text-decoration: none;
  &[aria-current="page"] {
    border-color: ${theme.colors.accent};
    background: ${theme.colors.accent};
    color: ${theme.colors.onAccent};
  }
  &:focus-visible {
    outline: 2px solid ${theme.colors.focus};
    outline-offset: 2px;
  }
`;
