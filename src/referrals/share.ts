/**
 * Sharing a referral link: the message from the content (`referrals.shareMessage`, whose
 * `{link}` becomes the link), each network's share address, and the browser's own share
 * menu (Web Share API) where it has one.
 *
 * The share addresses are each network's documented "share" or "intent" URL; none needs a
 * script or an app id, so the page loads nothing from the networks.
 */

/** The networks with a share link, in the order they are shown. */
export const SHARE_NETWORKS = ["x", "whatsapp", "telegram", "facebook", "reddit"] as const;
export type ShareNetwork = (typeof SHARE_NETWORKS)[number];

/** The placeholder of `referrals.shareMessage` that becomes the link. */
export const LINK_PLACEHOLDER = "{link}";

/**
 * The message with the link in it.
 * @param template `referrals.shareMessage`, e.g. "Join with my link: {link}"
 * @param link the referral link
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
 * Each network's share address for the link, with the message URL-encoded:
 * - X: the Tweet Web Intent, `https://twitter.com/intent/tweet?text=` (the message with the link);
 * - WhatsApp: `https://wa.me/?text=` (the message with the link);
 * - Telegram: `https://t.me/share/url?url=&text=` (the link, and the message without it);
 * - Facebook: `https://www.facebook.com/sharer/sharer.php?u=` (the link only: Facebook takes no text);
 * - Reddit: `https://www.reddit.com/submit?url=&title=` (the link, and the message without it as the title).
 * @param template `referrals.shareMessage`
 * @param link the referral link
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

/** The part of `navigator` the share menu needs. */
export type ShareCapable = Partial<Pick<Navigator, "share" | "canShare">>;

/**
 * What to hand the browser's share menu: the link as `url` (so the target shows it as a link or
 * a preview) and the message without it as `text`, so the link does not appear twice.
 */
export function webShareData(template: string, link: string): ShareData {
  return { text: shareMessageWithoutLink(template), url: link };
}

/**
 * Does this browser have a share menu for this data? Only then is the share button shown.
 * @param nav `navigator`, or a stand-in
 */
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
