/**
 * Copying the referral link: the Clipboard API where the browser grants it, otherwise the link
 * selected in its box for the visitor to copy (older browsers, plain http, a denied permission).
 */

export type ClipboardCapable = { clipboard?: Pick<Clipboard, "writeText"> };

/**
 * Copy `text`, or focus and select it in `field` when the browser will not copy.
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
