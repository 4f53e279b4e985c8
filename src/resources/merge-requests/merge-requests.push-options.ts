/**
 * `MergeRequests::PushOptionsHandlerService` (13.12) on the `push` fact: a git push with
 * `-o merge_request.create` opens a merge request for each branch it pushed (not a deletion, not
 * the default branch), or updates the open one with `.target`, `.title`, `.description`, `.label`,
 * `.unlabel`, `.remove_source_branch` and `.merge_when_pipeline_succeeds`. The title and
 * description come from `MergeRequests::BuildService`: the one commit's title and body, else the
 * branch name humanized. A refusal of the create or update service leaves that branch alone (the
 * push itself stands, as in GitLab, where the errors become a warning on the client). A merge
 * request it opens gets its merge request pipeline, as one the API opens does.
 * gitlab: app/services/merge_requests/push_options_handler_service.rb, build_service.rb,
 * lib/gitlab/push_options.rb (13.12).
 * @module
 */
import { ApiError } from '../../core/errors.js'
import type { Db } from '../../db/db.js'
import type { UserRecord } from '../../db/schema.js'
import { eventCtx, type DomainEvent } from '../../rules/events.js'
import { ancestors } from '../repository/repository.public.js'
import { createMergeRequestPipeline } from '../runners/runners.public.js'
import { actingAs, createMergeRequest } from './merge-requests.merge.js'
import { updateMergeRequest } from './merge-requests.service.js'

/** `Gitlab::PushOptions` for the `merge_request` namespace: each key's value (`true` without one), and every `label`/`unlabel`. */
interface MergeRequestPushOptions {
  readonly create: boolean
  readonly target?: string
  readonly title?: string
  readonly description?: string
  readonly labels: readonly string[]
  readonly unlabels: readonly string[]
  readonly removeSourceBranch: boolean
  readonly mergeWhenPipelineSucceeds: boolean
  /** Whether any `merge_request.*` option was sent. */
  readonly any: boolean
}

/** Reads the `merge_request.*` options of a push (`key` or `key=value`; unknown keys ignored, as GitLab does). */
function mergeRequestPushOptions(options: readonly string[]): MergeRequestPushOptions {
  const values = new Map<string, string | true>()
  const labels: string[] = []
  const unlabels: string[] = []
  let any = false
  for (const option of options) {
    const match = /^merge_request\.([a-z_]+)(?:=(.*))?$/s.exec(option)
    if (!match) continue
    any = true
    const [, key, value] = match
    if (key === 'label' && value !== undefined) labels.push(value)
    else if (key === 'unlabel' && value !== undefined) unlabels.push(value)
    else values.set(key!, value ?? true)
  }
  const text = (key: string) => {
    const v = values.get(key)
    return typeof v === 'string' ? v : undefined
  }
  return {
    create: values.has('create'),
    ...(text('target') !== undefined ? { target: text('target')! } : {}),
    ...(text('title') !== undefined ? { title: text('title')! } : {}),
    ...(text('description') !== undefined ? { description: text('description')! } : {}),
    labels,
    unlabels,
    removeSourceBranch: values.has('remove_source_branch'),
    mergeWhenPipelineSucceeds: values.has('merge_when_pipeline_succeeds'),
    any,
  }
}

/** `source_branch.titleize.humanize`: `feature/git-push` → `Feature/git push`. */
function humanizedBranch(branch: string): string {
  const words = branch.replace(/[-_]+/g, ' ').toLowerCase().trim()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

/** Runs the handler for one push fact (see the module comment). */
export function handlePushOptions(db: Db, event: DomainEvent<'push'>): void {
  const options = mergeRequestPushOptions(event.pushOptions)
  if (!options.any) return
  const ctx = eventCtx(db, event)
  const user = ctx.currentUser
  const project = db.tables.projects.get(event.project.id)
  if (!user || !project) return
  const repo = event.repository
  if (options.target !== undefined && !repo.branches.has(options.target)) return
  const branches = [...new Set(event.refs.filter((r) => r.ref.startsWith('refs/heads/') && r.after !== null).map((r) => r.ref.slice(11)))].filter((b) => b !== project.default_branch)
  if (branches.length > 10) return
  const acting = actingAs(ctx, user)
  for (const branch of branches) {
    const open = db.tables.merge_requests.where('project_id', project.id).filter((mr) => mr.state === 'opened' && mr.source_project_id === project.id && mr.source_branch === branch)
    if (open.length > 1) continue
    try {
      let mr = open[0]
      if (!mr) {
        if (!options.create) continue
        const target = options.target ?? project.default_branch
        const tip = repo.branches.get(branch)!
        const targetTip = repo.branches.get(target)
        const onTarget = targetTip === undefined ? new Set<string>() : ancestors(repo, targetTip)
        const commits = [...ancestors(repo, tip)].filter((id) => !onTarget.has(id))
        const single = commits.length === 1 ? repo.objects.commit(commits[0]!) : undefined
        const [firstLine = '', ...rest] = single ? single.message.split('\n') : []
        const title = options.title ?? (single ? firstLine : humanizedBranch(branch))
        const description = options.description ?? (single ? rest.join('\n').trim() : undefined)
        mr = createMergeRequest(acting, user, project, {
          title,
          source_branch: branch,
          target_branch: target,
          ...(description !== undefined ? { description } : {}),
          assignee_ids: [user.id],
          ...(options.labels.length > 0 ? { labels: [...options.labels] } : {}),
          ...(options.removeSourceBranch ? { remove_source_branch: true } : {}),
        })
        // `CreateService#after_create`: its merge request pipeline, as an API-created one gets.
        createMergeRequestPipeline(acting, project, user, mr, ctx.now)
      } else {
        const changed = options.target !== undefined || options.title !== undefined || options.description !== undefined || options.labels.length > 0 || options.unlabels.length > 0 || options.removeSourceBranch
        if (changed) {
          mr = updateMergeRequest(acting, user as UserRecord, project, mr, {
            ...(options.target !== undefined ? { target_branch: options.target } : {}),
            ...(options.title !== undefined ? { title: options.title } : {}),
            ...(options.description !== undefined ? { description: options.description } : {}),
            ...(options.labels.length > 0 ? { add_labels: [...options.labels] } : {}),
            ...(options.unlabels.length > 0 ? { remove_labels: [...options.unlabels] } : {}),
            ...(options.removeSourceBranch ? { remove_source_branch: true } : {}),
          })
        }
      }
      if (options.mergeWhenPipelineSucceeds) {
        db.tables.merge_requests.update(mr.id, { merge_when_pipeline_succeeds: true, merge_user_id: user.id, merge_params: { ...(mr.merge_params ?? {}), sha: repo.branches.get(branch)! } })
      }
    } catch (error) {
      if (!(error instanceof ApiError)) throw error
    }
  }
}
