/**
 * The console's screens by the address's fragment (it is one static page): `#dashboard`, `#search`,
 * `#search/<query>`, `#person/<id>`, `#review`, `#audit`, `#draw`, `#launch`. The back button and a bookmark work; nothing reaches a server.
 */
import { useCallback, useEffect, useState } from "react";

export type ConsoleRoute =
  | { view: "dashboard" }
  | { view: "search"; query: string }
  | { view: "person"; id: string }
  | { view: "review" }
  | { view: "audit" }
  | { view: "draw" }
  | { view: "launch" };

/** The route of a fragment (`#person/abc`); anything else is the dashboard. */
export function parseRoute(hash: string): ConsoleRoute {
  const [view, ...rest] = hash.replace(/^#/, "").split("/");
  const argument = decodeURIComponent(rest.join("/"));
  if (view === "search") return { view, query: argument };
  if (view === "person" && argument) return { view, id: argument };
  if (view === "review" || view === "audit" || view === "draw" || view === "launch") return { view };
  return { view: "dashboard" };
}

/** The fragment of a route, `#` included. */
export function routeHash(route: ConsoleRoute): string {
  if (route.view === "search") return route.query ? `#search/${encodeURIComponent(route.query)}` : "#search";
  if (route.view === "person") return `#person/${encodeURIComponent(route.id)}`;
  return `#${route.view}`;
}

/** The current route, following the fragment, and a way to go to another (a new history entry). */
export function useRoute(): [ConsoleRoute, (route: ConsoleRoute) => void] {
  const [route, setRoute] = useState<ConsoleRoute>(() => parseRoute(window.location.hash));
  useEffect(() => {
    const follow = () => setRoute(parseRoute(window.location.hash));
    window.addEventListener("hashchange", follow);
    return () => window.removeEventListener("hashchange", follow);
  }, []);
  const go = useCallback((next: ConsoleRoute) => {
    window.location.hash = routeHash(next);
  }, []);
  return [route, go];
}
