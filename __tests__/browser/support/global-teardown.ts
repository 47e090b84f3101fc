/** jest globalTeardown of the browser project: stop the servers globalSetup started. */
export default async function globalTeardown(): Promise<void> {
  await globalThis.__browserTestServers?.close();
  globalThis.__browserTestServers = undefined;
}
