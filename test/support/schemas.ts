/**
 * GitLab's own response JSON Schemas (`../shared/reference/gitlab-schemas`), loaded under a base URI
 * that makes every `$ref` resolve (see that folder's README). Invalid schema files are skipped.
 *
 * The schemas live outside the repository, beside the clone (CI puts `../shared` there). On a clone
 * with nothing beside it the schema checks are skipped, saying why once per test file, so that
 * `npm test` passes on any fresh clone (issue 6, item 5). `FAKELAB_REQUIRE_SCHEMAS=1` (set by
 * `.ci/run`) turns the skip into a failure, so CI cannot lose the checks silently.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { Ajv } from 'ajv'
import formatsPlugin from 'ajv-formats'

const addFormats = formatsPlugin as unknown as { default: (ajv: Ajv) => void }

const ROOT = resolve(import.meta.dirname, '..', '..', '..', 'shared', 'reference', 'gitlab-schemas')

/**
 * Why schema checks are skipped in this run, or `undefined` when the schemas are there.
 * Tests that only check schemas can use it with `it.skipIf(schemasMissing !== undefined)`.
 */
export const schemasMissing: string | undefined = existsSync(ROOT)
  ? undefined
  : `GitLab's response schemas are not at ${ROOT} (../shared is not beside this clone)`

let noted = false

const BASE = 'file:///gitlab/spec/fixtures/api/schemas/'
const SKIP = new Set([
  'public_api/v4/group_labels.json',
  'public_api/v4/milestones.json',
  'public_api/v4/issues.json',
  'public_api/v4/issue_links.json',
  'public_api/v4/merge_requests.json',
  'public_api/v4/label_basic.json',
])

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name)
    return statSync(full).isDirectory() ? files(full) : name.endsWith('.json') ? [full] : []
  })
}

let ajv: Ajv | undefined

function load(options: { formats: boolean }): Ajv {
  const instance = new Ajv({ strict: false, allErrors: true, validateFormats: options.formats })
  addFormats.default(instance)
  for (const file of files(ROOT)) {
    const rel = relative(ROOT, file).split('\\').join('/')
    if (!SKIP.has(rel)) instance.addSchema(JSON.parse(readFileSync(file, 'utf8')), BASE + rel)
  }
  return instance
}

/**
 * Validates `value` against a GitLab schema (`public_api/v4/labels/project_label.json`, or with a
 * JSON pointer such as `public_api/v4/members.json#/items`).
 * When the schemas are absent ({@link schemasMissing}) the check is skipped: it prints the reason
 * once per test file and returns no errors, so the rest of the calling test still runs.
 * @param formats check `format` keywords (GitLab's `date-time` on date-only fields fails; see README).
 * @returns the validation errors as readable strings; empty when valid or skipped.
 * @throws Error for an unknown schema name, or when the schemas are absent and `FAKELAB_REQUIRE_SCHEMAS` is set.
 */
export function schemaErrors(schema: string, value: unknown, formats = true): string[] {
  if (schemasMissing !== undefined) {
    if (process.env.FAKELAB_REQUIRE_SCHEMAS) throw new Error(`${schemasMissing}, and FAKELAB_REQUIRE_SCHEMAS is set`)
    if (!noted) console.warn(`[skip] ${schemasMissing}: schema checks are skipped`)
    noted = true
    return []
  }
  ajv ??= load({ formats: true })
  const instance = formats ? ajv : (noFormats ??= load({ formats: false }))
  const validate = instance.getSchema(BASE + schema)
  if (!validate) throw new Error(`unknown schema ${schema}`)
  if (validate(value)) return []
  return (validate.errors ?? []).map((e: { instancePath: string; message?: string }) => `${e.instancePath || '/'} ${e.message ?? ''}`)
}
let noFormats: Ajv | undefined
