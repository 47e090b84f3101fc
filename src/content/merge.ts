/** A campaign file's fields laid over the site file's. Build-time only. */

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Deep-merge `override` over `base` into a new value. Sections merge key by key; a list replaces
 * the whole list (an editor who writes three numbers means those three); any other value, `null`
 * included, replaces the base's.
 * @returns the merged value, typed as `base` (validate it: the override is not checked here)
 */
export function mergeContent<T>(base: T, override: unknown): T {
  if (override === undefined) return base;
  if (!isRecord(base) || !isRecord(override)) return override as T;
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(override)) merged[key] = mergeContent(base[key], value);
  return merged as T;
}
