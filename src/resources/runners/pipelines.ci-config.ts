/**
 * A project's CI definition at a commit and which of its jobs a pipeline gets: the repository's
 * `.gitlab-ci.yml` at the pipeline's sha when there is one (parsed with `yaml`), else the scenario's
 * `ci_config:` stand-in, else none. The parts of `.gitlab-ci.yml` fakelab reads: `stages`, and jobs
 * (every top-level key but the reserved ones and hidden `.keys`) with `stage`, `when`,
 * `allow_failure`, `rules:` (`if:` expressions with `==`, `!=`, `&&`, `||`, parentheses, a lone
 * variable, `null`; a rule's `when:`) and `only`/`except` (`merge_requests`, `branches`, `tags`,
 * source names, ref names and `/regexps/`; an array or `refs:`). A job with neither `rules` nor
 * `only` runs for branches and tags, as GitLab's default `only: [branches, tags]`.
 * Source: issue 26 (python-gitlab's merge request pipelines); gitlab (13.x):
 * lib/gitlab/ci/pipeline/chain/config/content.rb (the file as a local include),
 * lib/gitlab/ci/config/external/file/base.rb and local.rb (its YAML errors),
 * lib/gitlab/ci/config/entry/jobs.rb ("at least one visible job"), lib/gitlab/ci/yaml_processor.rb
 * (stage check), lib/gitlab/ci/build/rules.rb, lib/gitlab/ci/build/policy/refs.rb,
 * lib/gitlab/ci/pipeline/expression/*.
 * @module
 */
import { parse } from 'yaml'
import { DEFAULT_STAGES } from './pipelines.scenario.js'
import type { JobEnvironment, JobOptions, JobWhen } from './runners.tables.js'
import { jobOptionsOf, globalDefaultsOf, type GlobalDefaults } from './pipelines.ci-options.js'

/** The file GitLab reads a project's CI definition from (`ci_config_path` default). */
export const CI_CONFIG_PATH = '.gitlab-ci.yml'

/** One rule of a job's `rules:`: its `if:` expression (absent: always matches) and `when:`. */
export interface CiRule {
  readonly if?: string | undefined
  readonly when?: JobWhen | 'never' | undefined
}

/** A job of a CI definition, as a pipeline's jobs are made from it. */
export interface CiJob {
  readonly name: string
  readonly stage: string
  readonly when: JobWhen
  readonly allow_failure: boolean
  /** `allow_failure` as written (absent: the default, true for manual jobs). */
  readonly allow_failure_written?: boolean | undefined
  /** `rules:` (absent: none written). */
  readonly rules?: readonly CiRule[] | undefined
  /** `only:` refs patterns (absent: none written). */
  readonly only?: readonly string[] | undefined
  /** `except:` refs patterns (absent: none written). */
  readonly except?: readonly string[] | undefined
  /** `only: variables:` expressions (absent: none written): the job runs when any is true. */
  readonly onlyVariables?: readonly string[] | undefined
  /** `except: variables:` expressions (absent: none written): the job is left out when any is true. */
  readonly exceptVariables?: readonly string[] | undefined
  /** `environment:` (absent: none written). */
  readonly environment?: JobEnvironment | undefined
  /** The job's own `variables:` (absent: none written). */
  readonly variables?: Readonly<Record<string, string>> | undefined
  /** What a runner is sent of it (`script:`, `image:`, `artifacts:`...; absent: none read, a scenario stand-in's job). */
  readonly options?: JobOptions | undefined
  /** `tags:` (absent: none written). */
  readonly tags?: readonly string[] | undefined
  /** The global `variables:` merged with its own (`yaml_variables`, Ruby's `Hash#merge` order; absent: none). */
  readonly yamlVariables?: Readonly<Record<string, string>> | undefined
}

/** A CI definition: its stages in order and its jobs in the order written. */
export interface CiConfig {
  readonly stages: readonly string[]
  readonly jobs: readonly CiJob[]
  /** The global `variables:` (absent: none written). */
  readonly variables?: Readonly<Record<string, string>> | undefined
}

/** What a CI definition is at a commit: none, one that GitLab refuses (`error`, its message), or one. */
export type CiConfigResult = { readonly kind: 'missing' } | { readonly kind: 'error'; readonly error: string } | { readonly kind: 'config'; readonly config: CiConfig }

/** What the rules and refs policies read of the pipeline being made. */
export interface PipelineFacts {
  /** `api`, `merge_request_event`, `push`... */
  readonly source: string
  /** The short ref: a branch or tag name, or `refs/merge-requests/<iid>/head`. */
  readonly ref: string
  readonly tag: boolean
  /** The CI variables the `if:` expressions read (`CI_PIPELINE_SOURCE`, `CI_COMMIT_BRANCH`...). */
  readonly variables: Readonly<Record<string, string>>
  /**
   * The keys of {@link variables} that outrank `.gitlab-ci.yml`'s own `variables:` (instance,
   * group, project, pipeline, trigger and schedule variables); the others (predefined) do not.
   */
  readonly overrides?: ReadonlySet<string> | undefined
}

/** Top-level keys of `.gitlab-ci.yml` that are not jobs (`Entry::Root` nodes). */
const RESERVED = new Set(['image', 'services', 'stages', 'types', 'before_script', 'after_script', 'variables', 'cache', 'include', 'workflow', 'default'])

const WHEN = new Set(['on_success', 'manual', 'always', 'on_failure'])

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** `only:`/`except:` as refs patterns: an array, a string, or `{refs: [...]}`. */
function refsPatterns(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined
  if (typeof value === 'string') return [value]
  if (Array.isArray(value)) return value.map(String)
  if (isMapping(value)) return refsPatterns(value.refs) ?? []
  return undefined
}

/** `only:`/`except:`'s `variables:` expressions (`Build::Policy::Variables`), when written as a mapping. */
function variablePatterns(value: unknown): string[] | undefined {
  if (!isMapping(value) || value.variables === undefined || value.variables === null) return undefined
  return Array.isArray(value.variables) ? value.variables.map(String) : [String(value.variables)]
}

/**
 * `variables:` (global or a job's, `Entry::Variables`): a mapping of names to strings or numbers
 * (13.12 also takes `{value, description}` for a global one); undefined when none or not a mapping.
 */
function variablesOf(value: unknown): Record<string, string> | undefined {
  if (!isMapping(value)) return undefined
  const out: Record<string, string> = {}
  for (const [key, v] of Object.entries(value)) {
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out[key] = String(v)
    else if (isMapping(v) && (typeof v.value === 'string' || typeof v.value === 'number')) out[key] = String(v.value)
  }
  return out
}

/**
 * `environment:` of a job (`Entry::Environment`): a name, or `{name, url, action}`; anything else
 * (or a blank name) is none. The action defaults to `start`.
 */
function environmentOf(value: unknown): JobEnvironment | undefined {
  if (typeof value === 'string') return value.trim() === '' ? undefined : { name: value, url: null, action: 'start' }
  if (!isMapping(value) || typeof value.name !== 'string' || value.name.trim() === '') return undefined
  const action = value.action === 'stop' || value.action === 'prepare' ? value.action : 'start'
  return { name: value.name, url: typeof value.url === 'string' ? value.url : null, action }
}

/**
 * Parses `.gitlab-ci.yml`'s text into a definition, or GitLab's message refusing it: the file is a
 * local include, so a blank one is "Local file `.gitlab-ci.yml` is empty!", YAML that does not
 * parse or is not a mapping "Included file `.gitlab-ci.yml` does not have valid YAML syntax!", no
 * visible job "jobs config should contain at least one visible job", a job in an unknown stage
 * "<name> job: chosen stage does not exist; available stages are <stages>".
 * spec-gap: job keys beyond stage/when/allow_failure/rules/only/except are not validated.
 */
export function parseCiYaml(text: string): CiConfigResult {
  if (text.trim() === '') return { kind: 'error', error: `Local file \`${CI_CONFIG_PATH}\` is empty!` }
  let doc: unknown
  try {
    doc = parse(text)
  } catch {
    doc = undefined
  }
  if (!isMapping(doc) || Object.keys(doc).length === 0) return { kind: 'error', error: `Included file \`${CI_CONFIG_PATH}\` does not have valid YAML syntax!` }
  // Keys written as Ruby symbols (`:test_job:`) read as their names (GitLab's loader symbolizes keys).
  doc = Object.fromEntries(Object.entries(doc).map(([k, v]) => [k.startsWith(':') && k.length > 1 ? k.slice(1) : k, isMapping(v) ? Object.fromEntries(Object.entries(v).map(([ik, iv]) => [ik.startsWith(':') && ik.length > 1 ? ik.slice(1) : ik, iv])) : v]))
  if (!isMapping(doc)) return { kind: 'error', error: 'Invalid configuration format' }
  const stagesValue = doc.stages ?? doc.types
  // `.pre` and `.post` are always there, around the stages written.
  const stages = Array.isArray(stagesValue) ? ['.pre', ...stagesValue.map(String).filter((s) => s !== '.pre' && s !== '.post'), '.post'] : [...DEFAULT_STAGES]
  const jobs: CiJob[] = []
  const defaults: GlobalDefaults = globalDefaultsOf(doc)
  const globalVariables = variablesOf(doc.variables)
  for (const [name, body] of Object.entries(doc)) {
    if (RESERVED.has(name) || name.startsWith('.') || !isMapping(body)) continue
    const stage = typeof body.stage === 'string' ? body.stage : 'test'
    if (!stages.includes(stage)) return { kind: 'error', error: `${name} job: chosen stage does not exist; available stages are ${stages.join(', ')}` }
    const when: JobWhen = typeof body.when === 'string' && WHEN.has(body.when) ? (body.when as JobWhen) : 'on_success'
    const rules = Array.isArray(body.rules)
      ? body.rules.filter(isMapping).map((r): CiRule => ({
          if: typeof r.if === 'string' ? r.if : undefined,
          when: typeof r.when === 'string' && (WHEN.has(r.when) || r.when === 'never') ? (r.when as CiRule['when']) : undefined,
        }))
      : undefined
    jobs.push({
      name,
      stage,
      when,
      allow_failure: typeof body.allow_failure === 'boolean' ? body.allow_failure : when === 'manual',
      allow_failure_written: typeof body.allow_failure === 'boolean' ? body.allow_failure : undefined,
      rules,
      // `only: {variables: [...]}` alone keeps the default refs (`branches`, `tags`).
      only: isMapping(body.only) && body.only.refs === undefined ? undefined : refsPatterns(body.only),
      except: isMapping(body.except) && body.except.refs === undefined ? undefined : refsPatterns(body.except),
      onlyVariables: variablePatterns(body.only),
      exceptVariables: variablePatterns(body.except),
      environment: environmentOf(body.environment),
      variables: variablesOf(body.variables),
      options: jobOptionsOf(body, defaults),
      tags: Array.isArray(body.tags) ? body.tags.map(String) : undefined,
      yamlVariables: globalVariables || isMapping(body.variables) ? { ...globalVariables, ...variablesOf(body.variables) } : undefined,
    })
  }
  if (jobs.length === 0) return { kind: 'error', error: 'jobs config should contain at least one visible job' }
  return { kind: 'config', config: { stages, jobs, variables: globalVariables } }
}

// ---- if: expressions --------------------------------------------------------------------------

type Token = { t: 'var'; v: string } | { t: 'str'; v: string } | { t: 'null' } | { t: 'op'; v: '==' | '!=' | '&&' | '||' | '(' | ')' }

/** The tokens of an `if:` expression, or undefined for one fakelab cannot read (then it does not match). */
function tokenize(expr: string): Token[] | undefined {
  const tokens: Token[] = []
  const re = /\s*(?:\$([A-Za-z_][A-Za-z0-9_]*)|"([^"]*)"|'([^']*)'|(null)\b|(==|!=|&&|\|\||\(|\)))/y
  let i = 0
  while (i < expr.length) {
    if (/^\s*$/.test(expr.slice(i))) break
    re.lastIndex = i
    const m = re.exec(expr)
    if (!m) return undefined
    i = re.lastIndex
    if (m[1] !== undefined) tokens.push({ t: 'var', v: m[1] })
    else if (m[2] !== undefined || m[3] !== undefined) tokens.push({ t: 'str', v: m[2] ?? m[3]! })
    else if (m[4] !== undefined) tokens.push({ t: 'null' })
    else tokens.push({ t: 'op', v: m[5] as '==' })
  }
  return tokens
}

/**
 * Evaluates an `if:` expression (`Gitlab::Ci::Pipeline::Expression::Statement#truthful?`): `||`
 * binds looser than `&&`, a comparison compares a variable's value (null when undefined) with a
 * string, `null` or another variable, a lone variable or string is true when not empty.
 * spec-gap: `=~` and `!~` (regexps) are not read: an expression with them does not match.
 */
export function evaluateIf(expr: string, variables: Readonly<Record<string, string>>): boolean {
  const tokens = tokenize(expr)
  if (!tokens || tokens.length === 0) return false
  let pos = 0
  const peek = () => tokens[pos]
  const isOp = (v: string) => { const t = peek(); return t !== undefined && t.t === 'op' && t.v === v }
  const value = (): string | null | undefined => {
    const t = tokens[pos++]
    if (!t) return undefined
    if (t.t === 'var') return variables[t.v] ?? null
    if (t.t === 'str') return t.v
    if (t.t === 'null') return null
    return undefined
  }
  const primary = (): boolean | undefined => {
    if (isOp('(')) {
      pos++
      const inner = or()
      if (!isOp(')')) return undefined
      pos++
      return inner
    }
    const left = value()
    if (left === undefined) return undefined
    if (isOp('==') || isOp('!=')) {
      const op = (tokens[pos++] as { v: string }).v
      const right = value()
      if (right === undefined) return undefined
      return op === '==' ? left === right : left !== right
    }
    return left !== null && left !== ''
  }
  const and = (): boolean | undefined => {
    let result = primary()
    while (result !== undefined && isOp('&&')) {
      pos++
      const next = primary()
      if (next === undefined) return undefined
      result = result && next
    }
    return result
  }
  function or(): boolean | undefined {
    let result = and()
    while (result !== undefined && isOp('||')) {
      pos++
      const next = and()
      if (next === undefined) return undefined
      result = result || next
    }
    return result
  }
  const result = or()
  return result === true && pos === tokens.length
}

/** `Build::Policy::Refs#matches_pattern?`: whether one `only`/`except` pattern names the pipeline. */
function matchesPattern(pattern: string, p: PipelineFacts): boolean {
  const mergeRequest = p.source === 'merge_request_event'
  if (p.tag && pattern === 'tags') return true
  if (!p.tag && !mergeRequest && pattern === 'branches') return true
  const source = p.source.endsWith('_event') ? p.source.slice(0, -6) : p.source
  if (pattern === source || pattern === pluralize(source)) return true
  // Ref patterns do not match merge request pipelines.
  if (mergeRequest) return false
  const regexp = /^\/(.*)\/([a-z]*)$/.exec(pattern)
  if (regexp) {
    try {
      return new RegExp(regexp[1]!, regexp[2]!.replace(/[^imsu]/g, '')).test(p.ref)
    } catch {
      return false
    }
  }
  return pattern === p.ref
}

/** `String#pluralize` for GitLab's source names (`push` → `pushes`, `merge_request` → `merge_requests`). */
function pluralize(word: string): string {
  return /(sh|ch|s|x)$/.test(word) ? `${word}es` : `${word}s`
}

/**
 * The jobs of a definition a pipeline gets, with their `when` (`Chain::Populate` over
 * `Build::Rules` / the refs policies): by `rules:` the first rule that matches decides (its
 * `when`, `never` leaving the job out; no rule matching leaves it out); else by `only` (default
 * branches and tags) and `except`.
 */
export function jobsForPipeline(config: CiConfig, p: PipelineFacts): CiJob[] {
  return selectJobs(config, p).map((job) => (job.environment ? { ...job, environment: expandEnvironment(job.environment, jobVariables(config, job, p)) } : job))
}

/**
 * The variables a job's rules and environment read (13.12's precedence, lowest first): the
 * predefined ones, the global `variables:`, the job's `variables:`, then the instance, group,
 * project, pipeline, trigger and schedule variables (`p.overrides`), which YAML never overrides.
 */
function jobVariables(config: CiConfig, job: CiJob, p: PipelineFacts): Readonly<Record<string, string>> {
  if (!config.variables && !job.variables) return p.variables
  const vars: Record<string, string> = { ...p.variables }
  for (const [key, value] of Object.entries({ ...config.variables, ...job.variables })) if (!p.overrides?.has(key)) vars[key] = value
  return vars
}

/**
 * `ExpandVariables.expand`: `$VAR`, `${VAR}` and `%VAR%` replaced with the variable's value (an
 * unknown one with nothing), as GitLab expands a job's environment name and URL.
 */
function expandVariables(text: string, variables: Readonly<Record<string, string>>): string {
  return text.replace(/\$([A-Za-z_][A-Za-z0-9_]*)|\$\{([A-Za-z_][A-Za-z0-9_]*)\}|%([A-Za-z_][A-Za-z0-9_]*)%/g, (_m, a, b, c) => variables[(a ?? b ?? c) as string] ?? '')
}

/** A job's environment with its name and URL expanded (`Seed::Environment`, `Deployments::UpdateEnvironmentService#expanded_environment_url`). */
function expandEnvironment(env: JobEnvironment, variables: Readonly<Record<string, string>>): JobEnvironment {
  return { name: expandVariables(env.name, variables), url: env.url === null ? null : expandVariables(env.url, variables), action: env.action }
}

/** The jobs the rules and refs policies give a pipeline (see {@link jobsForPipeline}). */
function selectJobs(config: CiConfig, p: PipelineFacts): CiJob[] {
  const jobs: CiJob[] = []
  for (const job of config.jobs) {
    const variables = jobVariables(config, job, p)
    if (job.rules !== undefined) {
      const rule = job.rules.find((r) => r.if === undefined || evaluateIf(r.if, variables))
      if (!rule || rule.when === 'never') continue
      const when = rule.when ?? job.when
      jobs.push({ ...job, when, allow_failure: job.allow_failure_written ?? when === 'manual' })
      continue
    }
    const only = job.only ?? ['branches', 'tags']
    if (!only.some((pattern) => matchesPattern(pattern, p))) continue
    if (job.onlyVariables && !job.onlyVariables.some((expr) => evaluateIf(expr, variables))) continue
    if (job.except?.some((pattern) => matchesPattern(pattern, p))) continue
    if (job.exceptVariables?.some((expr) => evaluateIf(expr, variables))) continue
    jobs.push(job)
  }
  return jobs
}
