import { defineConfig } from 'vitest/config';

// The torture suite: hundreds of wedged and random hooks, 50 MB payloads, signals, fuzzing. It
// measures timeouts and kills against wall-clock bounds, so its files run one at a time: a file
// never competes with another for the 2 cores it is timing.
export default defineConfig({
  test: {
    include: ['test/torture/**/*.test.ts'],
    globalSetup: ['test/_fresh-build.ts'],
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
