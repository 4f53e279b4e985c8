/** Types of embed-default-scenario.mjs, for vitest.config.ts. */
/** Regenerates src/generated/default-scenario.ts from scenarios/default.yaml; returns the path. */
export function embedDefaultScenario(root?: string): string
