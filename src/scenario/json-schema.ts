/**
 * The scenario format as a JSON Schema (draft 2020-12), generated from the composed zod schema
 * with zod 4's `z.toJSONSchema`, for editors (`# yaml-language-server: $schema=…`) and other
 * tools. It describes what a file may hold (the input side: fields with defaults are optional);
 * fakelab's own checks go further (references between records, cron syntax, colours), and its
 * `file:line:col` problems remain the authority. Source: issue 12.
 * @module
 */
import { z } from 'zod'
import type { ComposedSchemas } from './compose.js'

/**
 * The JSON Schema of a scenario file. Checks zod cannot express (refinements) are left to
 * fakelab; transforms are described by their input. Top-level `x-…` keys (YAML anchors' home) are
 * allowed, as the parser strips them.
 */
export function scenarioJsonSchema(schemas: ComposedSchemas): Record<string, unknown> {
  const generated = z.toJSONSchema(schemas.scenario, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>
  const { $schema, ...rest } = generated
  return {
    $schema,
    title: 'fakelab scenario',
    description: 'A fakelab scenario file (version 1): users, groups and projects with what they hold. See the fakelab README, "Scenarios".',
    ...rest,
    patternProperties: { '^x-': {} },
  }
}
