/**
 * Render helpers: a page or component inside the same providers and layout
 * Gatsby's wrapRootElement / wrapPageElement give it.
 */
import React from "react";
import { render, type RenderResult } from "@testing-library/react";
import { wrapPageElement, wrapRootElement } from "../../src/app/wrappers";
import { loadTestContent, type TestSiteContent } from "./content";

/** Page props as Gatsby passes them (only what our pages read). */
export interface TestPageProps {
  data: { siteContent: TestSiteContent | null };
  location: { pathname: string };
}

/**
 * Render a page's default export with its data, inside the app's providers and layout.
 * @param content as the page query returns it (default: the fixture)
 */
export function renderPage(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any page component, whatever its query type
  Page: React.ComponentType<any>,
  pathname = "/",
  content: TestSiteContent | null = loadTestContent(),
): RenderResult & { content: TestSiteContent | null } {
  const props = {
    data: { siteContent: content },
    location: { pathname },
    path: pathname,
    pageContext: {},
    params: {},
  } as unknown as TestPageProps;
  const Typed = Page as unknown as React.ComponentType<TestPageProps>;
  const element = wrapRootElement({
    element: wrapPageElement({ element: <Typed {...props} />, props: props as never }),
  });
  return { ...render(element), content };
}

/** Render any element inside the app-wide providers only (no layout). */
export function renderInProviders(ui: React.ReactElement): RenderResult {
  return render(wrapRootElement({ element: ui }));
}
