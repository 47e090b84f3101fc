// Starting workerd and waiting for the queue consumer take seconds, not the default 5 s.
jest.setTimeout(120_000);
