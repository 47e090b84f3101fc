/** Lookups in the maintained domain lists the packages ship sorted (a unit test holds each to that). */

/**
 * Whether a sorted list holds a value: a binary search, so no lookup structure is built from a large list when an
 * isolate starts.
 */
export function sortedIncludes(list: readonly string[], value: string): boolean {
  let low = 0;
  let high = list.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const entry = list[middle];
    if (entry === value) return true;
    if (entry < value) low = middle + 1;
    else high = middle - 1;
  }
  return false;
}
