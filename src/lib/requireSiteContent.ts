/**
 * A page's `data.siteContent`, known to be present. It is missing only on a build fault, so the
 * page throws and the error boundary shows the error screen (product rule 5), not a page with holes.
 * @throws Error "No site content: …" when it is null or undefined
 */
export function requireSiteContent<T>(content: T | null | undefined): T {
  if (!content) throw new Error("No site content: the build did not create the SiteContent node.");
  return content;
}
