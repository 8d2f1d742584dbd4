import { defineConfig } from 'vitest/config';

/** Real-network provider checks, opt-in: `LIVE_PROVIDERS=deepseek npm run test:live`. */
export default defineConfig({
  test: {
    include: ['src/**/*.live.test.ts'],
    environment: 'node',
    setupFiles: ['src/test-setup.ts'],
    testTimeout: 60_000,
  },
});
