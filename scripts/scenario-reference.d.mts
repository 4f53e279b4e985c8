/** Types of scenario-reference.mjs, for test/unit/scenario-schema.test.ts. */
/** The scenario format reference page (Markdown, ending in a newline) for a scenario JSON Schema. */
export function renderScenarioReference(schema: Record<string, unknown>): string
