/**
 * The phone the bench's own page loads stand for: Lighthouse's default mobile emulation (a Moto G
 * Power: 412×823 CSS px, 4× CPU slowdown), so that its figures and Lighthouse's describe the same phone.
 */

/** Lighthouse's mobile screen emulation, in CSS pixels. */
export const MOBILE_VIEWPORT = { width: 412, height: 823 } as const;

/** Lighthouse's mobile CPU slowdown (its `cpuSlowdownMultiplier`): the main thread runs 4× slower. */
export const MOBILE_CPU_SLOWDOWN = 4;
