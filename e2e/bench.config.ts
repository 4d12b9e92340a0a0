import { defineConfig } from '@playwright/test'

// The benchmarks get their own port and their own build folder, so they never reuse a preview server (or a
// dist/ folder) that the e2e tests or a colleague's `vite preview` left behind with an older build.
const port = 4174
const site = 'e2e/results/site'

export default defineConfig({
  testDir: './bench',
  testMatch: '*.bench.ts',
  // A run id: a ratio test run alone (-g) must not pass on a measurement an earlier run left in e2e/results.
  globalSetup: './bench/run-id.ts',
  outputDir: '../test-results/bench',
  fullyParallel: false,
  workers: 1,
  forbidOnly: !!process.env.CI,
  retries: 0,
  // A whole measurement (all rounds of all cases) is one test.
  timeout: 300_000,
  reporter: [['list'], ['json', { outputFile: '../.results/bench.json' }]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        // gc() between measurements, as the Node runs of the signal benchmark do
        '--js-flags=--expose-gc',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
  webServer: {
    command:
      `pnpm exec vite build --logLevel warn --outDir ../${site} && ` +
      `pnpm exec vite preview --outDir ../${site} --port ${port} --strictPort`,
    cwd: '..',
    url: `http://127.0.0.1:${port}/bench.html`,
    reuseExistingServer: false,
    timeout: 60_000,
  },
})
