#!/usr/bin/env node
/**
 * Writes docs/scenario-reference.md, the scenario format's field reference, from its JSON Schema
 * (issue 28, item 3): one table per place (top level, users[], groups[], projects[], and every
 * nested list or object such as users[].tokens[]), each field with its type, whether it is required
 * and its description (the zod schema's `.describe`). From the built package:
 *   node scripts/scenario-reference.mjs docs/scenario-reference.md    (npm run schema)
 * test/unit/scenario-schema.test.ts renders it in memory (`renderScenarioReference`) and fails while
 * the committed page is not current. Usable as a module.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'

const SAFE = Number.MAX_SAFE_INTEGER

/** The node itself, or the object node a list of objects (or an alternative) holds, if any. */
function objectOf(node) {
  if (!node || typeof node !== 'object') return undefined
  if (node.properties) return node
  if (node.type === 'array') return objectOf(node.items)
  for (const alt of node.anyOf ?? node.oneOf ?? []) {
    const found = objectOf(alt)
    if (found) return found
  }
  return undefined
}

/** `[]` when the node is a list (of objects), else ''. */
function suffix(node) {
  if (node.type === 'array') return '[]'
  for (const alt of node.anyOf ?? node.oneOf ?? []) if (objectOf(alt)) return suffix(alt)
  return ''
}

/** A short type text for a schema node: `string`, `integer ≥ 0`, `list of string`, `"a" or "b"`. */
function typeText(node) {
  if (!node || typeof node !== 'object' || Object.keys(node).filter((k) => !['description', 'default'].includes(k)).length === 0) return 'any'
  if (node.const !== undefined) return JSON.stringify(node.const)
  if (node.enum) return node.enum.map((v) => JSON.stringify(v)).join(' or ')
  const alts = node.anyOf ?? node.oneOf
  if (alts) return [...new Set(alts.map(typeText))].join(' or ')
  const types = Array.isArray(node.type) ? node.type : [node.type]
  return types
    .map((type) => {
      switch (type) {
        case 'array':
          return `list of ${typeText(node.items)}`
        case 'object':
          return node.properties ? 'object' : 'map'
        case 'integer':
        case 'number': {
          const bounds = [
            // zod's int() bounds every integer to the safe range: no news for a reader.
            node.minimum !== undefined && node.minimum !== -SAFE ? `≥ ${node.minimum}` : node.exclusiveMinimum !== undefined ? `> ${node.exclusiveMinimum}` : '',
            node.maximum !== undefined && node.maximum !== SAFE ? `≤ ${node.maximum}` : '',
          ].filter(Boolean)
          return [type, ...bounds].join(' ')
        }
        case 'string':
          return node.format ? `string (${node.format})` : 'string'
        default:
          return String(type)
      }
    })
    .join(' or ')
}

/** A Markdown table cell: pipes escaped, line breaks folded. */
function cell(text) {
  return String(text).replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ')
}

/**
 * The reference page for a scenario JSON Schema ({@link scenarioJsonSchema}'s output).
 * @returns Markdown, ending in a newline.
 */
export function renderScenarioReference(schema) {
  const sections = []
  const visit = (place, node) => {
    const required = new Set(node.required ?? [])
    const rows = Object.entries(node.properties).map(([name, field]) => {
      const nested = objectOf(field)
      const type = nested ? `${typeText(field)}: see ${place === 'top level' ? '' : place + '.'}${name}${suffix(field)}` : typeText(field)
      return `| \`${name}\` | ${cell(type)} | ${required.has(name) ? 'yes' : ''} | ${cell(field.description ?? '')} |`
    })
    sections.push([`## ${place}`, '', '| field | type | required | description |', '|---|---|---|---|', ...rows, ''].join('\n'))
    for (const [name, field] of Object.entries(node.properties)) {
      const nested = objectOf(field)
      if (nested) visit(`${place === 'top level' ? '' : place + '.'}${name}${suffix(field)}`, nested)
    }
  }
  visit('top level', schema)
  return [
    '# Scenario format reference',
    '',
    '<!-- Generated from the scenario JSON Schema by scripts/scenario-reference.mjs (npm run schema): do not edit. -->',
    '',
    'Every field of a scenario file, by place, as the JSON Schema',
    '(`node_modules/fakelab/dist/scenario.schema.json`, which editors read) describes it. The',
    '[scenario guide](scenarios.md) explains how the parts fit together. fakelab checks more than the',
    'schema says (references between records, cron syntax, colours); its `file:line:col` problems are',
    'the authority. Times are ISO 8601 instants, dates `YYYY-MM-DD`; users, groups and projects are',
    'named by username and full path. Top-level keys starting with `x-` are ignored (a home for YAML',
    'anchors).',
    '',
    ...sections,
  ].join('\n')
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const out = process.argv[2]
  if (!out) {
    console.error('usage: node scripts/scenario-reference.mjs <output.md>')
    process.exit(1)
  }
  const { scenarioJsonSchema } = await import('../dist/index.js')
  mkdirSync(dirname(out), { recursive: true })
  writeFileSync(out, renderScenarioReference(scenarioJsonSchema()))
}
