import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The stress suite has its own command (npm run test:torture, vitest.torture.config.ts).
    exclude: ['test/torture/**', '**/node_modules/**'],
    // Fails the run when src/ is newer than dist/: many tests exercise the built CLI.
    globalSetup: ['test/_fresh-build.ts'],
    // Tests spawn real processes; a modest pool keeps timing-sensitive ones honest on 2 cores.
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
