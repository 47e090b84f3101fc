// The bindings the vitest config adds for the tests, over the Worker's own (worker/worker-configuration.d.ts).
import type { D1Migration } from "cloudflare:test";

declare global {
  namespace Cloudflare {
    interface Env {
      TEST_MIGRATIONS: D1Migration[];
    }
  }
}
