// Writes the scenario format's JSON Schema (generated from the zod schema, see
// src/scenario/json-schema.ts) to the path given, from the built package:
//   node scripts/scenario-schema.mjs dist/scenario.schema.json    (npm run build: the shipped copy)
//   node scripts/scenario-schema.mjs schemas/scenario.schema.json (npm run schema: the committed copy)
// test/unit/scenario-schema.test.ts fails while the committed copy is not current.
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { scenarioJsonSchema } from '../dist/index.js'

const out = process.argv[2]
if (!out) {
  console.error('usage: node scripts/scenario-schema.mjs <output.json>')
  process.exit(1)
}
mkdirSync(dirname(out), { recursive: true })
writeFileSync(out, `${JSON.stringify(scenarioJsonSchema(), null, 2)}\n`)
