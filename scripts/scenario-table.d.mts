/** The text of src/resources/scenario-table.ts for a table of fragment outlines by area (scripts/scenario-table.mjs). */
export function scenarioTableSource(table: Record<string, unknown>): string
