import { readdirSync } from "node:fs";
import { startWranglerDev } from "../scripts/lib/wrangler";
async function main() {
  const dir = "/tmp/probe-v13pw5/public-waitlist";
  const dev = await startWranglerDev({ assetsDir: dir, persistTo: "/tmp/probe-v13pw5/state", vars: { KLAVIYO_PRIVATE_API_KEY: "", TURNSTILE_SECRET_KEY: "", IP_HASH_SALT: "", KLAVIYO_WEBHOOK_SECRET: "x" } });
  const files = readdirSync(dir).filter((f) => f.endsWith(".js")).slice(0, 30).map((f) => `/${f}`).concat(["/status/", "/page-data/status/page-data.json", "/page-data/app-data.json"]);
  let ok = 0, bad = 0; const errs: Record<string, number> = {};
  const t0 = Date.now();
  let i = 0;
  async function worker() {
    while (Date.now() - t0 < 60_000 && i < 4000) {
      const f = files[i++ % files.length];
      try { const r = await fetch(dev.origin + f, { signal: AbortSignal.timeout(20_000) }); await r.arrayBuffer(); if (r.status === 200) ok++; else { bad++; errs[`status ${r.status}`] = (errs[`status ${r.status}`] ?? 0) + 1; } }
      catch (e) { bad++; const k = String((e as any).cause?.code ?? (e as Error).name); errs[k] = (errs[k] ?? 0) + 1; }
    }
  }
  await Promise.all(Array.from({ length: 12 }, worker));
  console.log({ ok, bad, errs, ms: Date.now() - t0 });
  await dev.stop();
}
main();
