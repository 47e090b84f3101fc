/**
 * The merge behind campaign pages: a campaign file's fields laid over the site
 * file's. Build-time only.
 */

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Deep-merge `override` over `base`, returning a new value (neither input changes).
 * - Sections (plain objects) merge key by key, at every depth.
 * - A list replaces the whole list: an editor who writes three odds numbers means
 *   those three, not the site's list with three entries swapped.
 * - Any other value, `null` included, replaces the base value; a key the override
 *   leaves out keeps the base value.
 * @param base e.g. the validated content of content/site.yaml
 * @param override e.g. the fields of one campaign file
 * @returns the merged value, typed as `base` (validate it: the override is not checked here)
 */
export function mergeContent<T>(base: T, override: unknown): T {
  if (override === undefined) return base;
  if (!isRecord(base) || !isRecord(override)) return override as T;
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(override)) merged[key] = mergeContent(base[key], value);
  return merged as T;
}
