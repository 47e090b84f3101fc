/**
 * Copying the referral link: the Clipboard API where the browser grants it, and otherwise
 * the link selected in its box, for the visitor to copy themselves (older browsers, a
 * page not served over https, a denied permission).
 */

/** The part of `navigator` copying needs. */
export type ClipboardCapable = { clipboard?: Pick<Clipboard, "writeText"> };

/**
 * Copy `text`, or select it in `field` when the browser will not copy.
 * @param text the referral link
 * @param field the read-only box that shows it (focused and selected in the fallback)
 * @returns "copied", or "selected" when the fallback ran
 */
export async function copyOrSelect(
  text: string,
  field: HTMLInputElement | null,
  nav: ClipboardCapable = navigator,
): Promise<"copied" | "selected"> {
  try {
    if (nav.clipboard) {
      await nav.clipboard.writeText(text);
      return "copied";
    }
  } catch {
    // Permission denied, or no focus on the document: fall back to the selection.
  }
  field?.focus();
  field?.select();
  return "selected";
}
