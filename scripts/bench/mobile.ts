/** The bench's own page loads use Lighthouse's mobile emulation, so its figures and Lighthouse's describe one phone. */

/** Lighthouse's mobile screen emulation, in CSS pixels. */
export const MOBILE_VIEWPORT = { width: 412, height: 823 } as const;

/** Lighthouse's mobile CPU slowdown (its `cpuSlowdownMultiplier`): the main thread runs 4× slower. */
export const MOBILE_CPU_SLOWDOWN = 4;
