// Starting wrangler and the CLI and holding a long write take seconds, not the default 5 s: the limit for a loaded
// machine with another file on the other core, said once here for every test of the project (ms).
jest.setTimeout(120_000);
