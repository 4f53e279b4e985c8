/**
 * Releases as GitLab 13.x's services make them: lookup, the create service (the tag made from
 * `ref` when missing, milestones by title, asset links, the evidence collected at once), the update
 * and destroy services, and the asset link model's validations.
 * gitlab: app/services/releases/{base,create,update,destroy}_service.rb, app/models/release.rb,
 * app/models/releases/link.rb, app/models/releases/evidence.rb, lib/api/release/links.rb (13.x).
 * @module
 */
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex } from '@noble/hashes/utils.js'
import { apiMessage, conflict, ValidationMessage } from '../../core/errors.js'
import type { Ctx } from '../../core/route.js'
import type { Db } from '../../db/db.js'
import type { ProjectRecord } from '../../db/schema.js'
import { urlBlockerProblem } from '../../rules/url-blocker.js'
import { milestonesOfGroup, milestonesOfProject } from '../milestones/milestones.public.js'
import { pusherOf, RepositoryWrite, peelToCommit, repositoryOf, resolveCommit } from '../repository/repository.public.js'
import { publishRelease } from './releases.events.js'
import { ReleaseMessage } from './releases.messages.js'
import type { ReleaseLinkRecord, ReleaseRecord } from './releases.tables.js'

/** The link types of `Releases::Link` (its `link_type` enum). */
export const LINK_TYPES = ['other', 'runbook', 'image', 'package'] as const

/** A link as a client sends it (POST release `assets[links][]`, POST/PUT links). */
export interface LinkAttributes {
  name?: string | undefined
  url?: string | undefined
  filepath?: string | null | undefined
  link_type?: ReleaseLinkRecord['link_type'] | undefined
}

/** The project's release for `tag` (`releases.find_by_tag`), or undefined. */
export function findRelease(db: Db, project: Pick<ProjectRecord, 'id'>, tag: string): ReleaseRecord | undefined {
  return db.tables.releases.where('project_id', project.id).find((r) => r.tag === tag)
}

/**
 * `ReleasesFinder` (13.x): the project's releases by `order_by` (`released_at` or `created_at`)
 * and `sort`; the id breaks ties in the same direction.
 */
export function listReleases(db: Db, project: ProjectRecord, orderBy: 'released_at' | 'created_at', sort: 'asc' | 'desc'): ReleaseRecord[] {
  const sign = sort === 'asc' ? 1 : -1
  return db.tables.releases
    .where('project_id', project.id)
    .sort((a, b) => sign * (a[orderBy] < b[orderBy] ? -1 : a[orderBy] > b[orderBy] ? 1 : a.id - b.id))
}

/**
 * The milestones titled `titles` in the project and its group (`MilestonesFinder`, state all),
 * in the order given.
 * @throws ApiError 400 `{"message":"Milestone(s) not found: a, b"}` naming the titles not found.
 */
function milestonesByTitle(db: Db, project: ProjectRecord, titles: readonly string[]): number[] {
  const candidates = [...milestonesOfProject(db, project.id), ...(project.namespace_type === 'group' ? milestonesOfGroup(db, project.namespace_id) : [])]
  const missing = titles.filter((t) => !candidates.some((m) => m.title === t))
  if (missing.length > 0) throw apiMessage(400, `${ReleaseMessage.milestonesNotFound} ${[...new Set(missing)].join(', ')}`)
  return [...new Set(titles)].map((t) => candidates.find((m) => m.title === t)!.id)
}

// gitlab: Releases::Link::FILEPATH_REGEX, `\A/(?:[\-\.\w]+/?)*[\da-zA-Z]+\z`, restated without the
// nested quantifier (linear): a leading `/`, then word characters, `-`, `.` and single slashes,
// ending in a letter or digit.
function validFilepath(path: string): boolean {
  return /^\/[-.\w/]*[\da-zA-Z]$/.test(path) && !path.includes('//')
}

/** `AddressableUrlValidator` with schemes http, https, ftp: the message, or null when valid. */
function urlProblem(url: string): string | null {
  return urlBlockerProblem(url, ['http', 'https', 'ftp']) ?? null
}

/**
 * The validations of `Releases::Link` against the release's other links, by attribute: name and
 * url present and unique in the release, url an http(s)/ftp URL, filepath unique and well formed.
 */
export function linkErrors(link: LinkAttributes, others: readonly LinkAttributes[]): Record<string, string[]> {
  const errors: Record<string, string[]> = {}
  const add = (attribute: string, message: string) => (errors[attribute] ??= []).push(message)
  const url = link.url ?? ''
  if (url.trim() === '') add('url', ValidationMessage.blank)
  else {
    const problem = urlProblem(url)
    if (problem) add('url', problem)
  }
  if (url !== '' && others.some((o) => o.url === url)) add('url', ValidationMessage.taken)
  const name = link.name ?? ''
  if (name.trim() === '') add('name', ValidationMessage.blank)
  if (name !== '' && others.some((o) => o.name === name)) add('name', ValidationMessage.taken)
  if (link.filepath) {
    if (others.some((o) => o.filepath === link.filepath)) add('filepath', ValidationMessage.taken)
    if (!validFilepath(link.filepath)) add('filepath', ReleaseMessage.filepathFormat)
  }
  return errors
}

/** The release's links. */
export function linksOf(db: Db, release: ReleaseRecord): ReleaseLinkRecord[] {
  return db.tables.release_links.where('release_id', release.id)
}

/** What POST /projects/:id/releases takes. */
export interface CreateReleaseParams {
  tag: string
  name?: string | undefined
  description?: string | undefined
  ref?: string | undefined
  released_at?: string | undefined
  milestones?: string[] | undefined
  links: LinkAttributes[]
}

/**
 * The evidence summary's SHA-256: GitLab hashes the JSON summary of the release
 * (`Releases::Evidence#summary_sha`); ours is the same kind of summary, so the sha changes
 * whenever what it sums up does.
 */
function summarySha(release: ReleaseRecord, links: readonly LinkAttributes[]): string {
  const summary = {
    release: {
      id: release.id,
      tag_name: release.tag,
      name: release.name,
      description: release.description,
      created_at: release.created_at,
      project: { id: release.project_id },
      milestones: release.milestone_ids,
      links: links.map((l) => ({ name: l.name, url: l.url })),
    },
  }
  return bytesToHex(sha256(new TextEncoder().encode(JSON.stringify(summary))))
}

/**
 * `Releases::CreateService` (13.x): refuses an existing release (409), unknown milestones (400), a
 * missing tag without `ref` (422); creates the tag from `ref` (lightweight, as the service passes no
 * message) when it does not exist; stores the release with its links and milestones; collects the
 * evidence now unless the release is historical or upcoming (`released_at` before or after now).
 * @throws ApiError 409 `{"message":"Release already exists"}`, 400 `Milestone(s) not found: …`,
 *   422 `{"message":"Ref is not specified"}`, 400 `Tag name invalid` / `Target <ref> is invalid`,
 *   400 `Validation failed: Links …` when a link is invalid.
 */
export function createRelease(ctx: Ctx<unknown>, project: ProjectRecord, params: CreateReleaseParams): ReleaseRecord {
  const db = ctx.db
  if (findRelease(db, project, params.tag)) throw conflict(ReleaseMessage.exists)
  const milestoneIds = params.milestones === undefined ? [] : milestonesByTitle(db, project, params.milestones)
  let repo = repositoryOf(db, project)
  let target = repo.tags.get(params.tag)
  if (target === undefined) {
    if (params.ref === undefined) throw apiMessage(422, ReleaseMessage.refNotSpecified)
    // spec-gap: Tags::CreateService's refusals carry no status in 13.x (Grape then answers 500);
    // fakelab answers 400, as the tags API does for the same messages.
    if (!validTagName(params.tag)) throw apiMessage(400, 'Tag name invalid')
    const commit = resolveCommit(repo, params.ref, project.default_branch)
    if (commit === undefined) throw apiMessage(400, `Target ${params.ref} is invalid`)
    const write = new RepositoryWrite(db, project)
    write.setTag(params.tag, commit)
    repo = write.save(pusherOf(ctx))
    target = commit
  }
  const linkErrorsFound: string[] = []
  params.links.forEach((link, i) => {
    const errors = linkErrors(link, params.links.slice(0, i))
    for (const [attribute, messages] of Object.entries(errors)) for (const m of messages) linkErrorsFound.push(`Links ${attribute} ${m}`)
  })
  if (linkErrorsFound.length > 0) throw apiMessage(400, `Validation failed: ${linkErrorsFound.join(', ')}`)
  const now = ctx.now
  const releasedAt = params.released_at ?? now
  const release = db.tables.releases.insert({
    project_id: project.id,
    tag: params.tag,
    name: params.name ?? params.tag,
    description: params.description ?? null,
    author_id: ctx.currentUser?.id ?? null,
    sha: peelToCommit(repo, target) ?? null,
    released_at: releasedAt,
    created_at: now,
    updated_at: now,
    milestone_ids: milestoneIds,
    evidences: [],
  })
  for (const link of params.links) {
    db.tables.release_links.insert({
      release_id: release.id,
      name: link.name!,
      url: link.url!,
      filepath: link.filepath || null,
      link_type: link.link_type ?? 'other',
      created_at: now,
      updated_at: now,
    })
  }
  // Release#historical_release? / #upcoming_release?: no evidence for either (CreateService#create_evidence!).
  let stored = release
  if (releasedAt === now) {
    const evidenceId = db.tables.releases.all().reduce((max, r) => Math.max(max, ...r.evidences.map((e) => e.id)), 0) + 1
    stored = db.tables.releases.update(release.id, { evidences: [{ id: evidenceId, summary_sha: summarySha(release, params.links), collected_at: now }] })
  }
  publishRelease(ctx, stored, linksOf(db, stored), 'create') // release.execute_hooks('create')
  return stored
}

/** Git's ref name rules as `Gitlab::GitRefValidator` applies them to a new tag. */
function validTagName(name: string): boolean {
  if (name === '' || name.startsWith('-') || name.startsWith('/') || name.endsWith('/') || name.endsWith('.') || name.endsWith('.lock')) return false
  if (name.includes('..') || name.includes('//') || name.includes('@{') || name === '@') return false
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x20\x7f~^:?*[\\]/.test(name)) return false
  return !name.split('/').some((part) => part.startsWith('.'))
}

/** What PUT /projects/:id/releases/:tag_name changes. */
export interface UpdateReleaseParams {
  name?: string | undefined
  description?: string | undefined
  released_at?: string | undefined
  milestones?: string[] | undefined
}

/**
 * `Releases::UpdateService` (13.x): the tag must still exist (404 `Tag does not exist`), some
 * attribute must be given (400 `params is empty`), the milestones must exist; `milestones`
 * replaces the release's milestones (`[]` removes them all).
 */
export function updateRelease(ctx: Ctx<unknown>, project: ProjectRecord, release: ReleaseRecord, params: UpdateReleaseParams): ReleaseRecord {
  const db = ctx.db
  if (!repositoryOf(db, project).tags.has(release.tag)) throw apiMessage(404, ReleaseMessage.tagMissing)
  const given = Object.entries(params).filter(([, v]) => v !== undefined)
  if (given.length === 0) throw apiMessage(400, ReleaseMessage.paramsEmpty)
  const changes: Partial<ReleaseRecord> = {}
  if (params.milestones !== undefined) changes.milestone_ids = milestonesByTitle(db, project, params.milestones)
  if (params.name !== undefined) changes.name = params.name
  if (params.description !== undefined) changes.description = params.description
  if (params.released_at !== undefined) changes.released_at = params.released_at
  const updated = db.tables.releases.update(release.id, { ...changes, updated_at: ctx.now })
  publishRelease(ctx, updated, linksOf(db, updated), 'update') // release.execute_hooks('update')
  return updated
}

/**
 * `Releases::DestroyService` (13.x): the tag must still exist; the release goes with its links,
 * milestone associations and evidences, and the tag stays. Returns the release as it is presented
 * after the delete (no links, milestones or evidences: those rows are gone).
 * @throws ApiError 404 `{"message":"Tag does not exist"}`.
 */
export function destroyRelease(ctx: Ctx<unknown>, project: ProjectRecord, release: ReleaseRecord): ReleaseRecord {
  const db = ctx.db
  if (!repositoryOf(db, project).tags.has(release.tag)) throw apiMessage(404, ReleaseMessage.tagMissing)
  for (const link of linksOf(db, release)) db.tables.release_links.delete(link.id)
  db.tables.releases.delete(release.id)
  const gone = { ...release, milestone_ids: [], evidences: [] }
  publishRelease(ctx, gone, [], 'delete')
  return gone
}
