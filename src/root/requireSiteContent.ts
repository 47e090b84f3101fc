/**
 * Every page reads the one content node its query selects. It is missing only when the build
 * created no `SiteContent` node for the page (gatsby-node did not run its content step), a build
 * fault rather than a visitor's: the page throws, and the error boundary shows the error screen
 * (product rule 5) instead of a page with holes.
 * @param content `data.siteContent` from the page's query
 * @returns the same content, known to be present
 * @throws Error "No site content: …" when it is null or undefined
 */
export function requireSiteContent<T>(content: T | null | undefined): T {
  if (!content) throw new Error("No site content: the build did not create the SiteContent node.");
  return content;
}
