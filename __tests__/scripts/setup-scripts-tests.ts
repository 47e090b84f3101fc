// Starting wrangler and holding a long write take seconds, not the default 5 s.
jest.setTimeout(120_000);
