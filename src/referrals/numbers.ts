/**
 * Numbers in the referral copy, written the way the site's language writes them
 * (`site.language`: 1,234 in English, 1.234 in German), and the copy around them.
 */

/**
 * One formatter per language, made on first use. A page's first `Intl.NumberFormat` loads the
 * language's number data (about 12 ms in Chromium here, 50 ms in the bench's 4× phone profile of
 * the leaderboard), and each further one still costs about 0.1 ms; formatting with a kept one
 * costs microseconds. The first one's cost is paid once per page whatever is done here.
 */
const formatters = new Map<string, Intl.NumberFormat>();

/**
 * A whole number in the site's language.
 * @param value e.g. 1234
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

/**
 * A text with each `{name}` placeholder replaced by its number, formatted for the language.
 * @param template e.g. "moves you {places} places up"
 * @param values e.g. { places: 10 }
 */
export function fillCounts(template: string, values: Record<string, number>, language: string): string {
  return template.replace(/\{(\w+)\}/g, (match, name: string) => (name in values ? formatCount(values[name], language) : match));
}
