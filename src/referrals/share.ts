/**
 * Sharing a referral link: the message (`referrals.shareMessage`), each network's documented share
 * URL and the Web Share API. No network needs a script or an app id, so the page loads nothing from them.
 */

/** The networks with a share link, in the order they are shown. */
export const SHARE_NETWORKS = ["x", "whatsapp", "telegram", "facebook", "reddit"] as const;
export type ShareNetwork = (typeof SHARE_NETWORKS)[number];

export const LINK_PLACEHOLDER = "{link}";

/**
 * The message with the link in it.
 * @param template e.g. "Join with my link: {link}"
 */
export function shareMessage(template: string, link: string): string {
  return template.split(LINK_PLACEHOLDER).join(link);
}

/**
 * The message without the link, for a network or share menu that takes the link apart
 * (and shows it as a preview card): the placeholder and the spaces around it are dropped.
 */
export function shareMessageWithoutLink(template: string): string {
  return template.split(LINK_PLACEHOLDER).join(" ").replace(/\s+/g, " ").trim();
}

/**
 * Each network's share address. Networks with a `url` field get the message without the link
 * (they show the link as a card); Facebook takes no text at all.
 */
export function shareLinks(template: string, link: string): Record<ShareNetwork, string> {
  const full = shareMessage(template, link);
  const text = shareMessageWithoutLink(template);
  const query = (parameters: Record<string, string>) => new URLSearchParams(parameters).toString();
  return {
    x: `https://twitter.com/intent/tweet?${query({ text: full })}`,
    whatsapp: `https://wa.me/?${query({ text: full })}`,
    telegram: `https://t.me/share/url?${query({ url: link, text })}`,
    facebook: `https://www.facebook.com/sharer/sharer.php?${query({ u: link })}`,
    reddit: `https://www.reddit.com/submit?${query({ url: link, title: text })}`,
  };
}

export type ShareCapable = Partial<Pick<Navigator, "share" | "canShare">>;

/**
 * What to hand the browser's share menu: the link as `url` (so the target shows it as a link or
 * a preview) and the message without it as `text`, so the link does not appear twice.
 */
export function webShareData(template: string, link: string): ShareData {
  return { text: shareMessageWithoutLink(template), url: link };
}

/** Does this browser have a share menu for this data? Only then is the share button shown. */
export function canWebShare(nav: ShareCapable | undefined, data?: ShareData): boolean {
  if (typeof nav?.share !== "function") return false;
  return typeof nav.canShare !== "function" || data === undefined || nav.canShare(data);
}

/**
 * Open the browser's share menu.
 * @returns "shared", or "cancelled" when the visitor closed the menu or the browser refused
 *   (an AbortError or NotAllowedError is the visitor's choice, not a failure to report)
 */
export async function openShareMenu(nav: ShareCapable, data: ShareData): Promise<"shared" | "cancelled"> {
  try {
    await nav.share?.(data);
    return "shared";
  } catch {
    return "cancelled";
  }
}
