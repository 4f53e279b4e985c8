import { defineConfig } from 'vitest/config'
import { embedDefaultScenario } from './scripts/embed-default-scenario.mjs'

// The browser-safe `fakelab` entry imports the default scenario's text from a generated module:
// regenerate it from scenarios/default.yaml before any test imports src (issue 12).
embedDefaultScenario()

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.contract.ts'],
    // The shared matchers (toBeGitLabError), with their types in test/support/matchers.ts.
    setupFiles: ['test/support/setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Every simulator in the suite, the CLI's too, runs its route again on each reused read answer
    // and fails that request with a 500 when the answers differ (src/core/reply-memo.ts).
    env: { FAKELAB_REPLY_MEMO: 'verify' },
  },
})
