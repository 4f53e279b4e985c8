/** Loaded before every test file (vitest.config.ts `setupFiles`): the shared matchers. */
import './matchers.js'
