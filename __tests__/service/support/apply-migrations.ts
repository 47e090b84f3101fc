/**
 * Applies the repository's migrations to the test file's D1 before its tests (a setup file may run more than once;
 * applyD1Migrations skips what is applied).
 */
import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";

await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
