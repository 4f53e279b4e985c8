/** The text of src/resources/route-table.ts for a table of route keys by area (scripts/route-table.mjs). */
export function routeTableSource(table: Record<string, { api: string[]; web?: string[] }>): string
