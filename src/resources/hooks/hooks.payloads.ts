/**
 * The bodies GitLab 13.12 POSTs to a hook, built from the facts of the domain-event channel: push
 * and tag push (`Gitlab::DataBuilder::Push`), issue and merge request (`DataBuilder::Issuable` with
 * `HookData::IssueBuilder` / `MergeRequestBuilder`), note (`DataBuilder::Note`) and pipeline
 * (`DataBuilder::Pipeline`), key by key in GitLab's order. A Time reaches the receiver as
 * `YYYY-MM-DD HH:MM:SS UTC` (the payload goes through Sidekiq's JSON, `Time#to_s`); a commit's
 * `timestamp` is ISO 8601 (`Commit#hook_attrs` calls `xmlschema`).
 * gitlab: lib/gitlab/data_builder/{push,issuable,note,pipeline}.rb, lib/gitlab/hook_data/*.rb,
 * app/models/project.rb, user.rb, label.rb, commit.rb `hook_attrs` (13.12);
 * doc/user/project/integrations/webhooks.md (13.12).
 * @module
 */
import type { Db } from '../../db/db.js'
import type { ProjectRecord, UserRecord } from '../../db/schema.js'
import { humanTimeDuration } from '../../entities/issuable.js'
import { projectWebUrl } from '../../entities/urls.js'
import { avatarUrl } from '../../entities/user.js'
import { storedAvatarUrl } from '../../rules/avatars.js'
import type { DomainEvent, EventCtx } from '../../rules/events.js'
import { labelById } from '../labels/labels.public.js'
import { issueById } from '../issues/issues.public.js'
import { mergeRequestById } from '../merge-requests/merge-requests.public.js'
import { snippetHookAttrs } from '../snippets/snippets.public.js'
import { diffTrees, peelToCommit, pushedCommits, type PushedRef, type Repository } from '../repository/repository.public.js'
import { jobById, jobsOfPipeline, type PipelineRecord } from '../runners/runners.public.js'
import { hookTime } from './hooks.delivery.js'

type Json = Record<string, unknown>
type IssueRecord = DomainEvent<'issue'>['issue']
type MergeRequestRecord = DomainEvent<'merge_request'>['mergeRequest']
type DeploymentRecord = DomainEvent<'deployment'>['deployment']

const VISIBILITY_LEVEL = { private: 0, internal: 10, public: 20 } as const

function namespaceName(db: Db, project: ProjectRecord): string {
  if (project.namespace_type === 'group') return db.tables.groups.get(project.namespace_id)?.name ?? ''
  return db.tables.users.get(project.namespace_id)?.name ?? ''
}

/** `Project#hook_attrs(backward:)`: the project as every payload names it. */
function projectHookAttrs(ctx: EventCtx, project: ProjectRecord, backward = true): Json {
  const webUrl = projectWebUrl(ctx, project)
  const host = new URL(ctx.baseUrl).host.replace(/:\d+$/, '')
  const ssh = `git@${host}:${ctx.db.projectFullPath(project)}.git`
  const attrs: Json = {
    id: project.id,
    name: project.name,
    description: project.description,
    web_url: webUrl,
    avatar_url: storedAvatarUrl(ctx, 'project', project.id),
    git_ssh_url: ssh,
    git_http_url: `${webUrl}.git`,
    namespace: namespaceName(ctx.db, project),
    visibility_level: VISIBILITY_LEVEL[project.visibility],
    path_with_namespace: ctx.db.projectFullPath(project),
    default_branch: project.default_branch,
    ci_config_path: null,
  }
  if (backward) Object.assign(attrs, { homepage: webUrl, url: ssh, ssh_url: ssh, http_url: `${webUrl}.git` })
  return attrs
}

/** `project.hook_attrs.slice(:name, :url, :description, :homepage)`: the deprecated `repository` key of issuable and note payloads. */
function repositoryAttrs(ctx: EventCtx, project: ProjectRecord): Json {
  const attrs = projectHookAttrs(ctx, project)
  return { name: attrs.name, url: attrs.url, description: attrs.description, homepage: attrs.homepage }
}

/** `User#hook_attrs`: `{id, name, username, avatar_url, email}`. */
function userHookAttrs(ctx: EventCtx, user: UserRecord): Json {
  return { id: user.id, name: user.name, username: user.username, avatar_url: avatarUrl(ctx, user), email: user.email }
}

function actor(ctx: EventCtx): Json | null {
  return ctx.currentUser === null ? null : userHookAttrs(ctx, ctx.currentUser)
}

/** `Label#hook_attrs`. */
function labelHookAttrs(db: Db, id: number): Json | null {
  const label = labelById(db, id)
  if (!label) return null
  return {
    id: label.id, title: label.title, color: label.color, project_id: label.project_id,
    created_at: hookTime(label.created_at), updated_at: hookTime(label.updated_at), template: false,
    description: label.description, type: label.project_id !== null ? 'ProjectLabel' : 'GroupLabel', group_id: label.group_id,
  }
}

function labelsOf(db: Db, ids: readonly number[]): Json[] {
  return ids.map((id) => labelHookAttrs(db, id)).filter((l): l is Json => l !== null)
}

function usersOf(ctx: EventCtx, ids: readonly number[]): Json[] {
  return ids.map((id) => ctx.db.tables.users.get(id)).filter((u): u is UserRecord => u !== undefined).map((u) => userHookAttrs(ctx, u))
}

const STATE_ID = { opened: 1, closed: 2, merged: 3, locked: 4 } as const

/** `HookData::IssueBuilder#build`: the issue's safe columns in table order, then the derived keys. */
function issueHookAttrs(ctx: EventCtx, project: ProjectRecord, issue: IssueRecord): Json {
  return {
    id: issue.id, title: issue.title, author_id: issue.author_id, project_id: issue.project_id,
    created_at: hookTime(issue.created_at), updated_at: hookTime(issue.updated_at),
    description: issue.description, milestone_id: issue.milestone_id, iid: issue.iid,
    updated_by_id: null, weight: null, confidential: issue.confidential, due_date: issue.due_date,
    moved_to_id: issue.moved_to_id, time_estimate: issue.time_estimate, relative_position: issue.relative_position,
    last_edited_at: null, last_edited_by_id: null, discussion_locked: issue.discussion_locked,
    closed_at: hookTime(issue.closed_at), state_id: STATE_ID[issue.state], duplicated_to_id: null,
    url: `${projectWebUrl(ctx, project)}/-/issues/${issue.iid}`,
    total_time_spent: issue.total_time_spent, time_change: 0,
    human_total_time_spent: humanTimeDuration(issue.total_time_spent), human_time_change: null,
    human_time_estimate: humanTimeDuration(issue.time_estimate),
    assignee_ids: [...issue.assignee_ids], assignee_id: issue.assignee_ids[0] ?? null,
    labels: labelsOf(ctx.db, issue.label_ids), state: issue.state, severity: 'unknown',
  }
}

function commitAttrs(ctx: EventCtx, project: ProjectRecord, repo: Repository, id: string, withFiles: boolean): Json {
  const commit = repo.objects.commit(id)!
  const message = commit.message
  const attrs: Json = {
    id,
    message,
    title: message.split('\n')[0]!.slice(0, 100),
    timestamp: new Date(commit.author.time * 1000).toISOString().replace(/\.\d{3}Z$/, '+00:00'),
    url: `${projectWebUrl(ctx, project)}/-/commit/${id}`,
    author: { name: commit.author.name, email: commit.author.email },
  }
  if (withFiles) {
    const diffs = diffTrees(repo, commit.parents[0] === undefined ? null : repo.objects.commit(commit.parents[0])!.tree, commit.tree)
    attrs.added = diffs.filter((d) => d.new_file).map((d) => d.new_path)
    attrs.modified = diffs.filter((d) => !d.new_file && !d.deleted_file).map((d) => d.new_path)
    attrs.removed = diffs.filter((d) => d.deleted_file).map((d) => d.new_path)
  }
  return attrs
}

/** `MergeRequestBuilder#build`: the merge request's safe columns in table order, then the derived keys. */
function mergeRequestHookAttrs(ctx: EventCtx, project: ProjectRecord, mr: MergeRequestRecord, repo: Repository | null): Json {
  const source = ctx.db.tables.projects.get(mr.source_project_id) ?? project
  return {
    id: mr.id, target_branch: mr.target_branch, source_branch: mr.source_branch, source_project_id: mr.source_project_id,
    author_id: mr.author_id, assignee_id: mr.assignee_ids[0] ?? null, title: mr.title,
    created_at: hookTime(mr.created_at), updated_at: hookTime(mr.updated_at), milestone_id: mr.milestone_id,
    merge_status: mr.merge_status, target_project_id: mr.project_id, iid: mr.iid, description: mr.description,
    updated_by_id: null, merge_error: null, merge_params: mr.force_remove_source_branch === null ? {} : { force_remove_source_branch: mr.force_remove_source_branch ? '1' : '0' },
    merge_when_pipeline_succeeds: mr.merge_when_pipeline_succeeds ?? false, merge_user_id: mr.merge_user_id ?? null,
    merge_commit_sha: mr.merge_commit_sha, time_estimate: mr.time_estimate,
    last_edited_at: null, last_edited_by_id: null, head_pipeline_id: null, state_id: STATE_ID[mr.state],
    url: `${projectWebUrl(ctx, project)}/-/merge_requests/${mr.iid}`,
    source: projectHookAttrs(ctx, source), target: projectHookAttrs(ctx, project),
    last_commit: repo && repo.objects.commit(mr.sha) ? commitAttrs(ctx, source, repo, mr.sha, false) : null,
    work_in_progress: mr.draft, total_time_spent: mr.total_time_spent, time_change: 0,
    human_total_time_spent: humanTimeDuration(mr.total_time_spent), human_time_change: null,
    human_time_estimate: humanTimeDuration(mr.time_estimate),
    assignee_ids: [...mr.assignee_ids], state: mr.state,
  }
}

/** The `changes` of an issuable payload: each changed safe key as `{previous, current}`. */
function changesOf(before: Json | null, after: Json, keys: readonly string[]): Json {
  const out: Json = {}
  if (before === null) return out
  for (const key of keys) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) out[key] = { previous: before[key] ?? null, current: after[key] ?? null }
  }
  return out
}

const ISSUE_CHANGE_KEYS = ['title', 'description', 'state_id', 'confidential', 'milestone_id', 'due_date', 'time_estimate', 'total_time_spent', 'discussion_locked', 'closed_at', 'updated_at', 'assignees', 'labels']
const MR_CHANGE_KEYS = ['title', 'description', 'state_id', 'target_branch', 'source_branch', 'milestone_id', 'merge_status', 'time_estimate', 'total_time_spent', 'updated_at', 'assignees', 'labels']

function issuableComparable(ctx: EventCtx, attrs: Json, assigneeIds: readonly number[], labelIds: readonly number[]): Json {
  return { ...attrs, assignees: usersOf(ctx, assigneeIds), labels: labelsOf(ctx.db, labelIds) }
}

/** What the issuable payload builder needs of one kind of issuable (`HookData::IssueBuilder`, `MergeRequestBuilder`). */
interface IssuableHookKind<R extends { assignee_ids: readonly number[]; label_ids: readonly number[] }> {
  /** `issuable.to_ability_name`: the payload's `object_kind`. */
  readonly objectKind: string
  /** The payload's `event_type`: a confidential issue's is `confidential_issue`. */
  eventType(issuable: R): string
  /** The builder's `object_attributes` (before `action`). */
  attrs(ctx: EventCtx, project: ProjectRecord, issuable: R, repo: Repository | null): Json
  /** The builder's `safe_keys` the `changes` compare (with `assignees` and `labels`). */
  readonly changeKeys: readonly string[]
}

/** The issuable kinds, as `DataBuilder::Issuable#issuable_builder` picks the builder by class. */
const ISSUABLE_KINDS = {
  issue: {
    objectKind: 'issue',
    eventType: (issue) => (issue.confidential ? 'confidential_issue' : 'issue'),
    attrs: (ctx, project, issue) => issueHookAttrs(ctx, project, issue),
    changeKeys: ISSUE_CHANGE_KEYS,
  } satisfies IssuableHookKind<IssueRecord>,
  merge_request: {
    objectKind: 'merge_request',
    eventType: () => 'merge_request',
    attrs: (ctx, project, mr, repo) => mergeRequestHookAttrs(ctx, project, mr, repo),
    changeKeys: MR_CHANGE_KEYS,
  } satisfies IssuableHookKind<MergeRequestRecord>,
}

/** An issuable kind of {@link issuablePayload}. */
export type IssuableHookKindName = keyof typeof ISSUABLE_KINDS

/** The record of each issuable kind. */
interface IssuableRecords {
  issue: IssueRecord
  merge_request: MergeRequestRecord
}

/**
 * `DataBuilder::Issuable#build`, once for every issuable kind, with the `action` the service adds
 * (IssueHooks, `MergeRequests::BaseService#hook_data`): `object_kind`, `event_type`, `user` (the
 * actor), `project`, `object_attributes`, `labels`, `changes` (each changed safe key as
 * `{previous, current}`, none without `before`), `repository`, and `assignees` when there are any.
 * @param repo the source project's repository (merge requests' `last_commit`); unused for issues.
 */
export function issuablePayload<K extends IssuableHookKindName>(
  ctx: EventCtx,
  project: ProjectRecord,
  kind: K,
  issuable: IssuableRecords[K],
  before: IssuableRecords[K] | null,
  action: string,
  repo: Repository | null = null,
): Json {
  const builder = ISSUABLE_KINDS[kind] as unknown as IssuableHookKind<IssuableRecords[K]>
  const attrs = builder.attrs(ctx, project, issuable, repo)
  const previous = before === null ? null : issuableComparable(ctx, builder.attrs(ctx, project, before, repo), before.assignee_ids, before.label_ids)
  const data: Json = {
    object_kind: builder.objectKind,
    event_type: builder.eventType(issuable),
    user: actor(ctx),
    project: projectHookAttrs(ctx, project),
    object_attributes: { ...attrs, action },
    labels: labelsOf(ctx.db, issuable.label_ids),
    changes: changesOf(previous, issuableComparable(ctx, attrs, issuable.assignee_ids, issuable.label_ids), builder.changeKeys),
    repository: repositoryAttrs(ctx, project),
  }
  if (issuable.assignee_ids.length > 0) data.assignees = usersOf(ctx, issuable.assignee_ids)
  return data
}

/** A note as `DataBuilder::Note` sends it (`Note#hook_attrs`: its columns, then `url`). */
export interface NoteLike {
  readonly id: number
  readonly body: string
  readonly noteable_type: string
  readonly noteable_id: number | null
  readonly commit_id?: string | undefined
  readonly author_id: number
  readonly project_id: number
  readonly created_at: string
  readonly updated_at: string
  readonly system: boolean
  readonly confidential: boolean | null
  readonly type?: string | null | undefined
  readonly line_code?: string | null | undefined
  readonly discussion_id?: string | undefined
  readonly resolved_at?: string | null | undefined
  readonly resolved_by_id?: number | null | undefined
}

/** `DataBuilder::Note#build`: the note, its project, and what it is on (`issue`, `merge_request`, `snippet` or `commit`). */
export function notePayload(ctx: EventCtx, project: ProjectRecord, note: NoteLike, repo: Repository | null): Json {
  const web = projectWebUrl(ctx, project)
  let url = `${web}/-/commit/${note.commit_id ?? ''}#note_${note.id}`
  let on: [string, Json] | null = null
  if (note.noteable_type === 'Issue' && note.noteable_id !== null) {
    const issue = issueById(ctx.db, note.noteable_id)
    if (issue) {
      url = `${web}/-/issues/${issue.iid}#note_${note.id}`
      on = ['issue', issueHookAttrs(ctx, project, issue)]
    }
  } else if (note.noteable_type === 'MergeRequest' && note.noteable_id !== null) {
    const mr = mergeRequestById(ctx.db, note.noteable_id)
    if (mr) {
      url = `${web}/-/merge_requests/${mr.iid}#note_${note.id}`
      on = ['merge_request', mergeRequestHookAttrs(ctx, project, mr, repo)]
    }
  } else if (note.noteable_type === 'Snippet' && note.noteable_id !== null) {
    const snippet = snippetHookAttrs(ctx.db, note.noteable_id, hookTime)
    if (snippet) {
      url = `${web}/-/snippets/${note.noteable_id}#note_${note.id}`
      on = ['snippet', snippet as Json]
    }
  } else if (note.commit_id && repo?.objects.commit(note.commit_id)) {
    on = ['commit', commitAttrs(ctx, project, repo, note.commit_id, false)]
  }
  const data: Json = {
    object_kind: 'note',
    event_type: note.confidential ? 'confidential_note' : 'note',
    user: actor(ctx),
    project_id: project.id,
    project: projectHookAttrs(ctx, project),
    object_attributes: {
      id: note.id, note: note.body, noteable_type: note.noteable_type, author_id: note.author_id,
      created_at: hookTime(note.created_at), updated_at: hookTime(note.updated_at), project_id: note.project_id,
      attachment: null, line_code: note.line_code ?? null, commit_id: note.commit_id ?? null, noteable_id: note.noteable_id,
      system: note.system, st_diff: null, updated_by_id: null, type: note.type ?? null, position: null, original_position: null,
      resolved_at: hookTime(note.resolved_at), resolved_by_id: note.resolved_by_id ?? null, discussion_id: note.discussion_id ?? null,
      change_position: null, resolved_by_push: null, review_id: null, confidential: note.confidential, url,
    },
    repository: repositoryAttrs(ctx, project),
  }
  if (on) data[on[0]] = on[1]
  return data
}

const BLANK = '0000000000000000000000000000000000000000'

/**
 * `DataBuilder::Push#build` for one ref: `object_kind` `tag_push` for a tag, the pushed commits
 * (the newest 20, oldest first, with their changed files; none for a deletion) and their count,
 * the commits being the repository area's `pushedCommits` (the ones the push event counts too).
 */
export function pushPayload(ctx: EventCtx, project: ProjectRecord, update: PushedRef, repo: Repository, previous: Repository): Json {
  const tag = update.ref.startsWith('refs/tags/')
  const commits = pushedCommits(project, update, repo, previous)
  const user = ctx.currentUser
  const checkout = update.after === null ? null : tag ? (peelToCommit(repo, update.after) ?? null) : update.after
  const project_ = projectHookAttrs(ctx, project)
  const limited = commits.slice(-20)
  return {
    object_kind: tag ? 'tag_push' : 'push',
    event_name: tag ? 'tag_push' : 'push',
    before: update.before ?? BLANK,
    after: update.after ?? BLANK,
    ref: update.ref,
    checkout_sha: checkout,
    message: tag && update.after !== null ? (repo.objects.tag(update.after)?.message ?? null) : null,
    user_id: user?.id ?? null,
    user_name: user?.name ?? null,
    user_username: user?.username ?? null,
    user_email: user?.public_email ?? null,
    user_avatar: user ? avatarUrl(ctx, user) : null,
    project_id: project.id,
    project: project_,
    commits: limited.map((id) => commitAttrs(ctx, project, repo, id, true)),
    total_commits_count: commits.length,
    push_options: {},
    repository: {
      name: project_.name, url: project_.url, description: project_.description, homepage: project_.homepage,
      git_http_url: project_.git_http_url, git_ssh_url: project_.git_ssh_url, visibility_level: project_.visibility_level,
    },
  }
}

/**
 * `DataBuilder::Repository.update`: the system hooks' `repository_update` of one push: the pusher,
 * the project (`hook_attrs`), each ref's `{before, after, ref}` (the blank SHA for a created or
 * deleted ref) and the refs. gitlab: lib/gitlab/data_builder/repository.rb, app/workers/post_receive.rb.
 */
export function repositoryUpdatePayload(ctx: EventCtx, project: ProjectRecord, refs: readonly PushedRef[]): Json {
  const user = ctx.currentUser
  return {
    event_name: 'repository_update',
    user_id: user?.id ?? null,
    user_name: user?.name ?? null,
    user_email: user?.email ?? null,
    user_avatar: user ? avatarUrl(ctx, user) : null,
    project_id: project.id,
    project: projectHookAttrs(ctx, project),
    changes: refs.map((update) => ({ before: update.before ?? BLANK, after: update.after ?? BLANK, ref: update.ref })),
    refs: refs.map((update) => update.ref),
  }
}

/** A release as `DataBuilder::Release` reads it. */
export interface ReleaseLike {
  readonly id: number
  readonly tag: string
  readonly name: string
  readonly description: string | null
  readonly sha: string | null
  readonly released_at: string
  readonly created_at: string
}

/** A release's asset link as `Releases::Link#hook_attrs` reads it. */
export interface ReleaseLinkLike {
  readonly id: number
  readonly name: string
  readonly url: string
  readonly link_type: string
}

/** `Releases::Source::FORMATS`: the archive formats of a release's sources, in GitLab's order. */
const RELEASE_SOURCE_FORMATS = ['zip', 'tar.gz', 'tar.bz2', 'tar'] as const

/**
 * `DataBuilder::Release#build`: `Release#hook_attrs` (`id, created_at, description, name,
 * released_at, tag`), then `object_kind`, the project, the release's `url`, the `action` (`create`
 * or `update`), the assets (the count of links and sources, the links, the four source archives)
 * and the tag's commit (`Commit#hook_attrs`; null when the repository lacks it).
 * gitlab: lib/gitlab/data_builder/release.rb, app/models/release.rb, app/models/releases/link.rb,
 * doc/user/project/integrations/webhooks.md "Release events" (13.12).
 */
export function releasePayload(ctx: EventCtx, project: ProjectRecord, release: ReleaseLike, links: readonly ReleaseLinkLike[], action: string, repo: Repository | null): Json {
  const web = projectWebUrl(ctx, project)
  const sources = RELEASE_SOURCE_FORMATS.map((format) => ({ format, url: `${web}/-/archive/${release.tag}/${project.path}-${release.tag}.${format}` }))
  return {
    id: release.id,
    created_at: hookTime(release.created_at),
    description: release.description,
    name: release.name,
    released_at: hookTime(release.released_at),
    tag: release.tag,
    object_kind: 'release',
    project: projectHookAttrs(ctx, project),
    url: `${web}/-/releases/${encodeURIComponent(release.tag)}`,
    action,
    assets: {
      count: links.length + sources.length,
      links: links.map((link) => ({ id: link.id, link_type: link.link_type, name: link.name, url: link.url })),
      sources,
    },
    commit: release.sha !== null && repo?.objects.commit(release.sha) ? commitAttrs(ctx, project, repo, release.sha, false) : null,
  }
}

/** `DataBuilder::Pipeline#build`: the pipeline, its user, project (`backward: false`), commit and builds. */
export function pipelinePayload(ctx: EventCtx, project: ProjectRecord, pipeline: PipelineRecord, repo: Repository | null): Json {
  const jobs = jobsOfPipeline(ctx.db, pipeline.id).filter((job) => !job.retried)
  const stages = [...new Map(jobs.sort((a, b) => a.stage_idx - b.stage_idx).map((job) => [job.stage, true])).keys()]
  const finished = jobs.map((job) => job.finished_at).filter((at): at is string => at !== null).sort()
  const started = jobs.map((job) => job.started_at).filter((at): at is string => at !== null).sort()
  const done = ['success', 'failed', 'canceled', 'skipped'].includes(pipeline.status)
  const finishedAt = done ? (finished[finished.length - 1] ?? pipeline.updated_at) : null
  const owner = pipeline.user_id === null ? undefined : ctx.db.tables.users.get(pipeline.user_id)
  const commit = repo?.objects.commit(pipeline.sha) ? commitAttrs(ctx, project, repo, pipeline.sha, false) : null
  return {
    object_kind: 'pipeline',
    object_attributes: {
      id: pipeline.id, ref: pipeline.ref, tag: pipeline.tag, sha: pipeline.sha, before_sha: BLANK, source: pipeline.source,
      status: pipeline.status, detailed_status: detailedStatus(pipeline.status), stages,
      created_at: hookTime(pipeline.created_at), finished_at: hookTime(finishedAt),
      duration: done && started[0] !== undefined && finishedAt !== null ? Math.round((Date.parse(finishedAt) - Date.parse(started[0])) / 1000) : null,
      variables: [],
    },
    merge_request: null,
    user: owner ? userHookAttrs(ctx, owner) : null,
    project: projectHookAttrs(ctx, project, false),
    commit,
    builds: jobs.filter((job) => job.type === 'Ci::Build').map((job) => ({
      id: job.id, stage: job.stage, name: job.name, status: job.status,
      created_at: hookTime(job.created_at), started_at: hookTime(job.started_at), finished_at: hookTime(job.finished_at),
      when: job.when, manual: job.when === 'manual', allow_failure: job.allow_failure,
      user: job.user_id === null ? null : (() => { const u = ctx.db.tables.users.get(job.user_id!); return u ? userHookAttrs(ctx, u) : null })(),
      runner: null, artifacts_file: { filename: null, size: null },
    })),
  }
}

/** A job as `DataBuilder::Build` reads it. */
type JobLike = ReturnType<typeof jobsOfPipeline>[number]

/** Seconds between two instants, or null when either is missing (`Ci::Build#duration`, `Ci::Pipeline#duration`). */
function seconds(from: string | null | undefined, to: string | null | undefined): number | null {
  if (!from || !to) return null
  return (Date.parse(to) - Date.parse(from)) / 1000
}

/**
 * `DataBuilder::Build#build`: the job's Job Hook payload: `object_kind` `build`, its ref, SHAs,
 * `build_*` fields, pipeline id, runner (null: no runner runs fakelab's jobs), project id and full
 * name, the job's user, the pipeline as `commit` (its id, the commit's message and author, status,
 * duration and times) and the project's `repository`. gitlab: lib/gitlab/data_builder/build.rb,
 * doc/user/project/integrations/webhooks.md "Job events" (13.12).
 */
export function jobPayload(ctx: EventCtx, project: ProjectRecord, job: JobLike, pipeline: PipelineRecord, repo: Repository | null): Json {
  const user = job.user_id === null ? undefined : ctx.db.tables.users.get(job.user_id)
  const commit = repo?.objects.commit(pipeline.sha)
  const authorEmail = commit?.author.email ?? null
  const author = authorEmail === null ? undefined : ctx.db.tables.users.all().find((u) => u.email === authorEmail)
  const jobs = jobsOfPipeline(ctx.db, pipeline.id).filter((j) => !j.retried)
  const started = jobs.map((j) => j.started_at).filter((at): at is string => at !== null).sort()[0] ?? null
  const done = ['success', 'failed', 'canceled', 'skipped'].includes(pipeline.status)
  const finished = done ? (jobs.map((j) => j.finished_at).filter((at): at is string => at !== null).sort().pop() ?? null) : null
  const project_ = projectHookAttrs(ctx, project)
  return {
    object_kind: 'build',
    ref: job.ref,
    tag: job.tag,
    before_sha: BLANK,
    sha: pipeline.sha,
    build_id: job.id,
    build_name: job.name,
    build_stage: job.stage,
    build_status: job.status,
    build_created_at: hookTime(job.created_at),
    build_started_at: hookTime(job.started_at),
    build_finished_at: hookTime(job.finished_at),
    build_duration: seconds(job.started_at, job.finished_at),
    build_allow_failure: job.allow_failure,
    build_failure_reason: job.status === 'failed' ? 'unknown_failure' : null,
    pipeline_id: pipeline.id,
    runner: null,
    project_id: project.id,
    project_name: ctx.db.projectFullName(project),
    user: { id: user?.id ?? null, name: user?.name ?? null, email: user?.email ?? null, avatar_url: user ? avatarUrl(ctx, user) : null },
    commit: {
      id: pipeline.id,
      sha: pipeline.sha,
      message: commit?.message ?? null,
      author_name: commit?.author.name ?? null,
      author_email: authorEmail,
      author_url: author ? `${ctx.baseUrl}/${author.username}` : `mailto:${authorEmail ?? ''}`,
      status: pipeline.status,
      duration: done && started !== null && finished !== null ? Math.round(seconds(started, finished)!) : null,
      started_at: hookTime(started),
      finished_at: hookTime(finished),
    },
    repository: {
      name: project.name, url: project_.url, description: project.description, homepage: project_.web_url,
      git_http_url: project_.git_http_url, git_ssh_url: project_.git_ssh_url, visibility_level: project_.visibility_level,
    },
  }
}

/** `detailed_status` of a pipeline status: GitLab's status presenter's text (`passed` for success). */
function detailedStatus(status: string): string {
  switch (status) {
    case 'success': return 'passed'
    case 'running': return 'running'
    case 'pending': return 'pending'
    case 'failed': return 'failed'
    case 'canceled': return 'canceled'
    case 'skipped': return 'skipped'
    case 'manual': return 'manual action'
    case 'created': return 'created'
    case 'scheduled': return 'delayed'
    default: return status
  }
}

/** What a wiki page hook reads of the page (the `wiki_page` fact's). */
export interface WikiPageLike {
  readonly slug: string
  readonly format: string
  readonly content: string
}

/**
 * `DataBuilder::WikiPage#build` (13.12): `object_kind` `wiki_page`, the user, the project, the
 * wiki's URLs and the page (`title, content, format, message, slug`, its `url` and the `action`).
 * gitlab: lib/gitlab/data_builder/wiki_page.rb, app/models/wiki.rb (`hook_attrs`),
 * doc/user/project/integrations/webhooks.md "Wiki Page events".
 */
export function wikiPagePayload(ctx: EventCtx, project: ProjectRecord, page: WikiPageLike, title: string, message: string | null, action: string): Json {
  const web = projectWebUrl(ctx, project)
  const path = ctx.db.projectFullPath(project)
  const host = new URL(ctx.baseUrl).host.replace(/:\d+$/, '')
  return {
    object_kind: 'wiki_page',
    user: actor(ctx),
    project: projectHookAttrs(ctx, project),
    wiki: {
      web_url: `${web}/-/wikis/home`,
      git_ssh_url: `git@${host}:${path}.wiki.git`,
      git_http_url: `${ctx.baseUrl}/${path}.wiki.git`,
      path_with_namespace: `${path}.wiki`,
      default_branch: 'master',
    },
    object_attributes: {
      title,
      content: page.content,
      format: page.format,
      message,
      slug: page.slug,
      url: `${web}/-/wikis/${page.slug}`,
      action,
    },
  }
}

/**
 * `DataBuilder::Deployment#build` (13.12): the Deployment Hook payload: `object_kind`
 * `deployment`, its status and when it changed (`status_changed_at`, the fact's instant), its job
 * (`deployable_id`, `deployable_url`: null for a deployment made through the API), the
 * environment's name, the project, `short_sha`, who deployed (`deployed_by`: the job's user, else
 * the deployment's) and their URL, the commit's URL and title (null when the repository has no such commit).
 * gitlab: lib/gitlab/data_builder/deployment.rb, doc/user/project/integrations/webhooks.md "Deployment events" (13.12).
 */
export function deploymentPayload(ctx: EventCtx, project: ProjectRecord, deployment: DeploymentRecord, environmentName: string, statusChangedAt: string, repo: Repository | null): Json {
  const job = deployment.deployable_id === null ? undefined : jobById(ctx.db, deployment.deployable_id)
  const userId = job?.user_id ?? deployment.user_id
  const user = userId === null ? undefined : ctx.db.tables.users.get(userId)
  const webUrl = projectWebUrl(ctx, project)
  const commit = repo?.objects.commit(deployment.sha)
  return {
    object_kind: 'deployment',
    status: deployment.status,
    status_changed_at: hookTime(statusChangedAt),
    deployable_id: deployment.deployable_id,
    deployable_url: job ? `${webUrl}/-/jobs/${job.id}` : null,
    environment: environmentName,
    project: projectHookAttrs(ctx, project),
    short_sha: deployment.sha.slice(0, 8),
    user: user ? userHookAttrs(ctx, user) : null,
    user_url: user ? `${ctx.baseUrl}/${user.username}` : null,
    commit_url: `${webUrl}/-/commit/${deployment.sha}`,
    commit_title: commit ? (commit.message.split('\n')[0] ?? '') : null,
  }
}
