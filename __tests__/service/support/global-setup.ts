/**
 * Vitest's global setup, in Node: the provider stand-ins' control surface (stand-in-host.ts), whose address the tests
 * in workerd read with `inject("standInHost")`.
 */
import type { TestProject } from "vitest/node";
import { startStandInHost } from "./stand-in-host";

declare module "vitest" {
  export interface ProvidedContext {
    standInHost: string;
  }
}

export default async function setup({ provide }: TestProject): Promise<() => Promise<void>> {
  const host = await startStandInHost();
  provide("standInHost", host.url);
  return () => host.close();
}
