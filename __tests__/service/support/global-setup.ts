/**
 * Vitest's global setup, in Node: the provider stand-ins' control surface (stand-in-host.ts), whose address the tests
 * in workerd read with `inject("standInHost")`, and the API fuzz test's
 * requests per route (`inject("fuzzRuns")`).
 */
import type { TestProject } from "vitest/node";
import { startStandInHost } from "./stand-in-host";

declare module "vitest" {
  export interface ProvidedContext {
    standInHost: string;
    /** Requests per route of the API fuzz test (api-fuzz.test.ts): FUZZ_RUNS, or a few for the service suite. */
    fuzzRuns: number;
  }
}

/** The fuzz test's requests per route when FUZZ_RUNS is unset: enough to cover every route, few enough to keep the suite quick. */
const DEFAULT_FUZZ_RUNS = 15;

export default async function setup({ provide }: TestProject): Promise<() => Promise<void>> {
  const host = await startStandInHost();
  provide("standInHost", host.url);
  provide("fuzzRuns", Number(process.env.FUZZ_RUNS) || DEFAULT_FUZZ_RUNS);
  return () => host.close();
}
