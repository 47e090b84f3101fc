/** Numbers in the referral copy, written as `site.language` writes them (1,234 in English, 1.234 in German). */

/** One formatter per language, made on first use and kept: creating an `Intl.NumberFormat` is far dearer than formatting with one. */
const formatters = new Map<string, Intl.NumberFormat>();

/**
 * A whole number in the site's language.
 * @param language BCP 47 code from `site.language`, e.g. "en"
 * @returns e.g. "1,234"
 * @throws RangeError when `language` is not a valid BCP 47 tag (the content schema only lets valid ones through)
 */
export function formatCount(value: number, language: string): string {
  let formatter = formatters.get(language);
  if (!formatter) {
    formatter = new Intl.NumberFormat(language, { maximumFractionDigits: 0 });
    formatters.set(language, formatter);
  }
  return formatter.format(value);
}

/**
 * A text split around its placeholder, so that the page can put the number between the
 * two parts in an element of its own (tabular digits, reserved width).
 * @param template e.g. "You're #{position} in line"
 * @param placeholder e.g. "{position}"
 * @returns [before, after]; after is "" when the placeholder is missing (the schema requires it)
 */
export function splitAround(template: string, placeholder: string): [string, string] {
  const at = template.indexOf(placeholder);
  return at < 0 ? [template, ""] : [template.slice(0, at), template.slice(at + placeholder.length)];
}

/** A text with each `{name}` placeholder replaced by its number, e.g. "moves you {places} places up" with `{ places: 10 }`. */
export function fillCounts(template: string, values: Record<string, number>, language: string): string {
  return template.replace(/\{(\w+)\}/g, (match, name: string) => (name in values ? formatCount(values[name], language) : match));
}
