/**
 * `.gitlab-ci.yml` content as CI lint checks it (`Gitlab::Ci::YamlProcessor#execute` on given
 * content): the same reader the pipelines use (`parseCiYaml`), with the messages GitLab gives for
 * content that is not an included file, and the job checks lint adds (a script or a trigger, known
 * keys). Keys written as Ruby symbols (`:test_job:`) read as their names, as GitLab's YAML loader
 * (`YAML.safe_load` with `Symbol` permitted, then `deep_symbolize_keys`) reads them.
 * Source: gitlab (13.12): lib/api/lint.rb, lib/gitlab/ci/lint.rb, lib/gitlab/ci/yaml_processor.rb,
 * lib/gitlab/config/loader/yaml.rb ("Invalid configuration format"), lib/gitlab/ci/config/entry/job.rb
 * (`ALLOWED_KEYS`, "config should implement a script: or a trigger: keyword").
 * @module
 */
import { parse, stringify } from 'yaml'
import { parseCiYaml } from './pipelines.ci-config.js'

/** What lint answers: whether the content is valid, its errors and warnings, the merged YAML. */
export interface CiLintResult {
  readonly valid: boolean
  readonly errors: readonly string[]
  readonly warnings: readonly string[]
  /** The configuration after includes, as YAML (`to_yaml`); null when it did not load. */
  readonly mergedYaml: string | null
}

/** Top-level keys of `.gitlab-ci.yml` that are not jobs (`Entry::Root` nodes). */
const RESERVED = new Set(['image', 'services', 'stages', 'types', 'before_script', 'after_script', 'variables', 'cache', 'include', 'workflow', 'default'])

/** A job's keys, 13.12's `Entry::Job::ALLOWED_KEYS` with the `Processable` ones. */
const JOB_KEYS = new Set([
  'tags', 'script', 'type', 'image', 'services', 'start_in', 'artifacts', 'cache', 'dependencies', 'before_script',
  'after_script', 'environment', 'coverage', 'retry', 'parallel', 'interruptible', 'timeout', 'resource_group',
  'release', 'secrets', 'extends', 'stage', 'trigger', 'rules', 'only', 'except', 'when', 'variables', 'inherit',
  'allow_failure', 'needs',
])

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Mapping keys written as Ruby symbols (`:name`) read as their names, at every depth. */
function symbolizeKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(symbolizeKeys)
  if (!isMapping(value)) return value
  const out: Record<string, unknown> = {}
  for (const [key, inner] of Object.entries(value)) out[key.startsWith(':') && key.length > 1 ? key.slice(1) : key] = symbolizeKeys(inner)
  return out
}

const invalid = (errors: string[], mergedYaml: string | null = null): CiLintResult => ({ valid: false, errors, warnings: [], mergedYaml })

/**
 * Lints `.gitlab-ci.yml` content. Errors, as 13.12 words them: blank content "Please provide
 * content of .gitlab-ci.yml"; YAML that does not parse "(<unknown>): <the parser's message>"
 * (spec-gap: Psych's wording differs from the `yaml` package's); not a mapping "Invalid configuration
 * format"; a job that is not a mapping "jobs:<name> config should be a hash"; a job without
 * `script`/`trigger` "jobs:<name> config should implement a script: or a trigger: keyword"; unknown
 * job keys "jobs:<name> config contains unknown keys: <keys>"; then the pipelines' own checks (no
 * visible job, a job in an unknown stage). Warnings are always empty (spec-gap: the
 * `rules:when` without `workflow:rules` warning is not given).
 */
export function lintCiYaml(text: string | undefined): CiLintResult {
  if (text === undefined || text.trim() === '') return invalid(['Please provide content of .gitlab-ci.yml'])
  let doc: unknown
  try {
    doc = parse(text)
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0]! : 'could not parse'
    return invalid([`(<unknown>): ${message}`])
  }
  if (!isMapping(doc)) return invalid(['Invalid configuration format'])
  const config = symbolizeKeys(doc) as Record<string, unknown>
  const mergedYaml = `---\n${stringify(config)}`
  const errors: string[] = []
  for (const [name, body] of Object.entries(config)) {
    if (RESERVED.has(name) || name.startsWith('.')) continue
    if (!isMapping(body)) {
      errors.push(`jobs:${name} config should be a hash`)
      continue
    }
    const unknown = Object.keys(body).filter((key) => !JOB_KEYS.has(key))
    if (unknown.length > 0) errors.push(`jobs:${name} config contains unknown keys: ${unknown.join(', ')}`)
    if (body.script === undefined && body.trigger === undefined) errors.push(`jobs:${name} config should implement a script: or a trigger: keyword`)
  }
  if (errors.length > 0) return invalid(errors, mergedYaml)
  const parsed = parseCiYaml(text)
  if (parsed.kind === 'error') return invalid([parsed.error], mergedYaml)
  return { valid: true, errors: [], warnings: [], mergedYaml }
}
