/**
 * Pipelines on push: the runners area's subscriber to the `push` fact, as `Git::BranchPushService`
 * and `Git::TagPushService` run `Ci::CreatePipelineService` with source `push` (13.12: from the
 * `PostReceive` worker, fakelab in the push's request). Every pushed branch or tag, whoever pushed
 * it (a `git push`, an API commit or file write, a branch or tag created through the API, a
 * merge), gets a pipeline when its commit has a `.gitlab-ci.yml`; a deletion gets none. The push
 * options `ci.skip` and `ci.variable="KEY=value"` (`Gitlab::PushOptions`) reach the pipeline.
 * gitlab: app/services/git/base_hooks_service.rb (`create_pipelines`, `pipeline_params`,
 * `generate_vars_from_push_options`), lib/gitlab/push_options.rb, lib/gitlab/ci/pipeline/chain/skip.rb (13.12).
 * @module
 */
import type { Db } from '../../db/db.js'
import { eventCtx, subscribe, type DomainEvent } from '../../rules/events.js'
import { createPushPipeline, type NewVariable } from './pipelines.service.js'

/** The `ci.*` push options: whether `ci.skip` was given, and the `ci.variable`s. */
interface CiPushOptions {
  readonly skip: boolean
  readonly variables: readonly NewVariable[]
}

/**
 * Reads the `ci` namespace of push options (`Gitlab::PushOptions#parse_option`: `namespace.key`
 * with an optional `=value`, stripped): `ci.skip` (any value), and each `ci.variable=KEY=value`
 * as an `env_var` variable, the first `=` splitting key from value; a variable without `=` or with
 * an empty key is dropped (`generate_vars_from_push_options`). A repeated variable counts once.
 */
function ciPushOptions(options: readonly string[]): CiPushOptions {
  let skip = false
  const seen = new Set<string>()
  const variables: NewVariable[] = []
  for (const option of options) {
    const match = /^([^.]+)\.([^=]+)=?(.*)$/s.exec(option)
    if (!match || match[1]!.trim() !== 'ci') continue
    const key = match[2]!.trim()
    const value = match[3]!.trim()
    if (key === 'skip') skip = true
    if (key !== 'variable' || seen.has(value)) continue
    seen.add(value)
    const eq = value.indexOf('=')
    if (eq <= 0 || value.slice(0, eq).trim() === '') continue
    variables.push({ key: value.slice(0, eq), value: value.slice(eq + 1), variable_type: 'env_var' })
  }
  return { skip, variables }
}

/** Creates the push pipelines of one push fact (see the module comment). */
function pipelinesOnPush(db: Db, event: DomainEvent<'push'>): void {
  const ctx = eventCtx(db, event)
  const user = ctx.currentUser
  const project = db.tables.projects.get(event.project.id)
  // `Chain::Validate::Abilities`: no user, no pipeline.
  if (!user || !project || project.archived) return
  const ci = ciPushOptions(event.pushOptions)
  for (const { ref, before, after } of event.refs) {
    if (after === null) continue
    const tag = ref.startsWith('refs/tags/')
    if (!tag && !ref.startsWith('refs/heads/')) continue
    createPushPipeline(ctx, project, user, { ref: ref.slice(tag ? 10 : 11), tag, before, after, variables: ci.variables, skip: ci.skip }, event.at)
  }
}

subscribe('push', pipelinesOnPush)
