/// <reference types="vitest/config" />
import { defineConfig } from 'vite'
import { playwright } from '@vitest/browser-playwright'
import { fileURLToPath } from 'node:url'

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))

/** The Debian Chromium: browser downloads are not possible on these machines. */
export const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium'

const alias = {
  '@eddy/signal': here('./packages/signal/src/index.ts'),
  '@eddy/scheduler': here('./packages/scheduler/src/index.ts'),
}

export default defineConfig({
  root: here('./demo'),
  resolve: { alias },
  server: { host: '127.0.0.1', port: 5173, strictPort: true },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true },
  build: {
    outDir: here('./demo/dist'),
    emptyOutDir: true,
    target: 'es2022',
    // Two pages: the demo, and the benchmark page that the Playwright benchmarks drive (not linked from the demo).
    rolldownOptions: { input: { main: here('./demo/index.html'), bench: here('./demo/bench.html') } },
  },
  test: {
    root: here('.'),
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'unit',
          root: here('.'),
          globalSetup: here('./scripts/fresh-dist.mjs'),
          environment: 'happy-dom',
          // Vitest's default 5 s is wall time, and the property tests (fast-check, 300-1000 runs) and the deep-chain
          // tests do fixed CPU work of 1-2.5 s on a free core: on a shared 2-core machine (CI with the browser project
          // beside it, other jobs) they took 4-6 s and failed with "Test timed out in 5000ms", every assertion passed.
          // What they check is correctness, not speed (the benchmarks guard speed); a hang still fails, after 30 s.
          testTimeout: 30_000,
          // scripts/test: the CI scripts and the configs that launch Chromium (shell scripts run in a temp copy).
          include: ['packages/*/test/**/*.test.ts', 'scripts/test/**/*.test.ts'],
          exclude: ['packages/*/test/browser/**', '**/node_modules/**'],
        },
      },
      {
        resolve: { alias },
        // Pre-bundled before the first test file loads (for test/browser/apps/react/, interop/ and migrate/): a
        // dependency Vite first finds mid-run is optimized then, and Vite reloads the page under the running tests.
        optimizeDeps: {
          include: [
            ...['react', 'react-dom', 'react-dom/client', 'react-dom/server'],
            ...['@vue/reactivity', '@preact/signals-core', 'alien-signals'],
          ],
        },
        test: {
          name: 'browser',
          root: here('.'),
          // After the unit project, not beside it: the browser tests measure the real event loop (a monitor reading
          // a periodic load, frames during a loop()), and the unit project's property tests kept both cores busy
          // (a CI run read a 50%-busy load under 'pressure' once, which it never does alone).
          sequence: { groupOrder: 1 },
          globalSetup: here('./scripts/fresh-dist.mjs'),
          include: ['packages/*/test/browser/**/*.test.ts'],
          browser: {
            enabled: true,
            headless: true,
            screenshotFailures: false,
            provider: playwright({
              launchOptions: {
                executablePath: chromiumPath,
                args: ['--no-sandbox', '--disable-gpu', '--js-flags=--expose-gc'],
              },
            }),
            instances: [{ browser: 'chromium' }],
          },
        },
      },
      // Opt-in (`npm run test:runtimes`): @eddy/scheduler and @eddy/signal under Deno and Bun, as child processes. Not
      // in `npm test`: the CI machines have neither binary (DENO_BIN / BUN_BIN, node_modules/.bin or PATH).
      ...(process.env.EDDY_RUNTIMES
        ? [{ test: { name: 'runtimes', root: here('.'), globalSetup: here('./scripts/fresh-dist.mjs'), include: ['packages/scheduler/test/runtimes/*.runtime.ts'] } }]
        : []),
    ],
  },
})
