/**
 * Creating, changing and deleting projects: GitLab's name and path derivation, the model's
 * validations with their messages and order, the namespace permission check, the creator's
 * membership, and the cascade of a delete.
 * Source: gitlab: app/services/projects/create_service.rb, app/services/projects/update_service.rb,
 * app/services/projects/destroy_service.rb, app/models/project.rb, lib/gitlab/regex.rb,
 * lib/gitlab/path_regex.rb.
 * @module
 */
import { recordProjectMove } from './projects.redirects.js'
import { AccessLevel, activeMembership, canReadProject, groupAccessLevel, projectLevels } from '../../rules/access.js'
import { destroyRecords } from '../../rules/cascade.js'
import { applicationSetting } from '../application-settings/application-settings.public.js'
import { ApiError, validationFailed, ValidationMessage } from '../../core/errors.js'
import { ProjectValidationMessage } from './projects.messages.js'
import { ModelErrors } from '../../rules/model-errors.js'
import { parameterize, present } from '../../core/ruby.js'
import type { Ctx } from '../../core/route.js'
import { runnersRegistrationToken } from '../../rules/runners-token.js'
import type { Db } from '../../db/db.js'
import { denseView } from '../../db/dense.js'
import { fuzzySearch } from '../../rules/fuzzy-search.js'
import type { GroupRecord, ProjectRecord, UserRecord, Visibility } from '../../db/schema.js'
import type { MergeMethod } from './projects.tables.js'
import { publish } from '../../rules/events.js'
import { publishProject } from './projects.events.js'

let projectNameRegex: RegExp | undefined
/**
 * `Gitlab::Regex.project_name_regex` (13.x): letters, digits, emoji, `_`, `.`, dashes, spaces. Made
 * on the first name checked: V8 builds the Unicode property classes when the literal is evaluated,
 * a fifth of a millisecond of every start otherwise (issue 27).
 */
function projectNamePattern(): RegExp {
  return (projectNameRegex ??= /^[\p{Alphabetic}\p{Nd}\u{00A9}-\u{1F9FF}_][\p{Alphabetic}\p{Nd}\p{Pd}\u{00A9}-\u{1F9FF}_. ]*$/u)
}
/** `Gitlab::Regex.project_name_regex_message` (13.x). */
const PROJECT_NAME_MESSAGE =
  "can contain only letters, digits, emojis, '_', '.', dash, space. It must start with letter, digit, emoji or '_'."
/** `Gitlab::PathRegex.project_path_format_regex`: no leading `-`, no `.git`/`.atom` suffix. */
const PROJECT_PATH = /^[a-zA-Z0-9_.][a-zA-Z0-9_\-.]*(?<!\.git|\.atom)$/
/** `Gitlab::PathRegex.project_path_format_message`. */
const PROJECT_PATH_MESSAGE = "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'"
/** Both columns are `varchar(255)`-validated. */
const MAX_LENGTH = 255
const LEVEL: Record<Visibility, number> = { private: 0, internal: 10, public: 20 }

/** Where a project lives: a group or a user's personal namespace. */
export type ProjectNamespace = { kind: 'group'; group: GroupRecord } | { kind: 'user'; user: UserRecord }

/** The attributes `POST /projects` and `PUT /projects/:id` may set. */
export interface ProjectAttributes {
  name?: string
  path?: string
  description?: string
  visibility?: Visibility
  default_branch?: string
  /** `merge_method` (`PUT /projects/:id` only). */
  merge_method?: MergeMethod
}

/**
 * The namespace a `namespace_id` names. spec-gap: fakelab keeps users' personal namespaces under
 * their user ids and groups under their own ids, so one number can name both (GitLab shares one
 * `namespaces` sequence); a group wins, as it is the common case for a client naming a namespace.
 */
export function findNamespace(db: Db, id: number): ProjectNamespace | undefined {
  const group = db.tables.groups.get(id)
  if (group) return { kind: 'group', group }
  const user = db.tables.users.get(id)
  return user ? { kind: 'user', user } : undefined
}

/**
 * `can?(user, :create_projects, namespace)`: a group's Developer+ (its `project_creation_level`
 * is `developer`), the owner of a personal namespace, or an administrator.
 * gitlab: app/policies/group_policy.rb, app/policies/namespace_policy.rb.
 */
function canCreateIn(ctx: Ctx<unknown>, user: UserRecord, namespace: ProjectNamespace): boolean {
  if (user.admin) return true
  if (namespace.kind === 'user') return namespace.user.id === user.id
  return groupAccessLevel(ctx.db, user, namespace.group, ctx.today) >= AccessLevel.DEVELOPER
}

/** The projects and subgroups whose routes share a namespace (route paths are unique, case-insensitively). */
function siblings(db: Db, namespace: ProjectNamespace): { projects: ProjectRecord[]; subgroupPaths: string[] } {
  const type = namespace.kind
  const id = namespace.kind === 'group' ? namespace.group.id : namespace.user.id
  const projects = db.tables.projects.where('namespace_id', id).filter((p) => p.namespace_type === type)
  const subgroupPaths = namespace.kind === 'group' ? db.tables.groups.where('parent_id', id).map((g) => g.path.toLowerCase()) : []
  return { projects, subgroupPaths }
}

/**
 * The model validations of a project about to be saved, in the order GitLab reports them: the
 * route (full path) first, then name, path and visibility. Empty when valid.
 * @param self the project being updated (excluded from the uniqueness checks), if any.
 */
function validate(db: Db, record: Omit<ProjectRecord, 'id'>, namespace: ProjectNamespace, self?: number): Record<string, string[]> {
  const errors: Record<string, string[]> = {}
  const add = (key: string, message: string) => (errors[key] ??= []).push(message)
  const { projects, subgroupPaths } = siblings(db, namespace)
  const others = projects.filter((p) => p.id !== self)
  const path = record.path.toLowerCase()
  const pathTaken = others.some((p) => p.path.toLowerCase() === path)
  if (present(record.path) && (pathTaken || subgroupPaths.includes(path))) {
    add('route.path', ValidationMessage.taken)
    add('route', ValidationMessage.invalid)
  }
  if (!present(record.name)) add('name', ValidationMessage.blank)
  else if (!projectNamePattern().test(record.name)) add('name', PROJECT_NAME_MESSAGE)
  if (record.name.length > MAX_LENGTH) add('name', ValidationMessage.tooLong(MAX_LENGTH))
  if (present(record.name) && others.some((p) => p.name === record.name)) add('name', ValidationMessage.taken)
  if (!present(record.path)) add('path', ValidationMessage.blank)
  else if (!PROJECT_PATH.test(record.path)) add('path', PROJECT_PATH_MESSAGE)
  if (record.path.length > MAX_LENGTH) add('path', ValidationMessage.tooLong(MAX_LENGTH))
  if (pathTaken) add('path', ValidationMessage.taken)
  if (namespace.kind === 'group' && LEVEL[record.visibility] > LEVEL[namespace.group.visibility]) {
    add('visibility_level', `${record.visibility} is not allowed in a ${namespace.group.visibility} group.`)
  }
  return errors
}

/** Options of {@link createProject}. */
export interface CreateOptions {
  /**
   * `POST /projects` reads `project.errors[:limit_reached]` before rendering a failure, which under
   * Rails 6.0 adds an empty `limit_reached` key to every 400 body; `POST /projects/user/:user_id`
   * does not. gitlab: lib/api/projects.rb.
   */
  readsLimitReached: boolean
  /** The model errors of an uploaded avatar (`avatarErrors`), reported with the others. */
  avatarErrors?: Record<string, string[]>
}

/**
 * `Projects::CreateService` for `owner` (the caller, or the user of `POST /projects/user/:user_id`).
 * A name alone gives the path `name.parameterize`; a path alone gives the name `path`. Without
 * `namespace_id` the project goes to the owner's personal namespace.
 * @throws ApiError 400 `{"message":{"namespace":["is not valid"]}}` when the namespace is missing or
 *   the owner may not create projects in it; 403 `{"error":["…"]}` past a personal project limit
 *   (`POST /projects`); 400 `{"message":{…,"base":["Unable to save project. Error: …"]}}` on a
 *   failed validation.
 */
export function createProject(
  ctx: Ctx<unknown>,
  owner: UserRecord,
  attrs: ProjectAttributes & { namespace_id?: number; namespace?: ProjectNamespace },
  options: CreateOptions,
): ProjectRecord {
  const limitKey: Record<string, string[]> = options.readsLimitReached ? { limit_reached: [] } : {}
  let name = attrs.name ?? ''
  let path = attrs.path ?? ''
  // gitlab: set_project_name_from_path (the path from the name is "for compatibility").
  if (present(path) && !present(name)) name = path
  else if (present(name) && !present(path)) path = parameterize(name)

  let namespace: ProjectNamespace | undefined
  if (attrs.namespace !== undefined) {
    // A namespace the caller already resolved (a fork's target): still `can?(:create_projects)`.
    namespace = attrs.namespace
    if (!canCreateIn(ctx, owner, namespace)) throw validationFailed({ namespace: [ProjectValidationMessage.namespaceNotValid], ...limitKey })
  } else if (attrs.namespace_id !== undefined) {
    namespace = findNamespace(ctx.db, attrs.namespace_id)
    if (!namespace || !canCreateIn(ctx, owner, namespace)) {
      throw validationFailed({ namespace: [ProjectValidationMessage.namespaceNotValid], ...limitKey })
    }
  } else {
    namespace = { kind: 'user', user: owner }
  }

  const record: Omit<ProjectRecord, 'id'> = {
    name,
    path,
    description: attrs.description ?? '',
    visibility: attrs.visibility ?? applicationSetting(ctx.db).default_project_visibility,
    namespace_type: namespace.kind,
    namespace_id: namespace.kind === 'group' ? namespace.group.id : namespace.user.id,
    creator_id: owner.id,
    created_at: ctx.now,
    last_activity_at: ctx.now,
    // spec-gap: GitLab answers null for an empty repository's default branch; fakelab names the
    // branch its first commit will go to: the instance's `default_branch_name`, else 13.x's `master`.
    default_branch: attrs.default_branch ?? applicationSetting(ctx.db).default_branch_name ?? 'master',
    archived: false,
    repository_storage: 'default',
    runners_token: runnersRegistrationToken(ctx.faker),
  }
  const errors = { ...validate(ctx.db, record, namespace), ...options.avatarErrors }
  // gitlab: Project#check_personal_projects_limit (personal namespaces only, counted for the creator).
  if (namespace.kind === 'user') {
    const count = ctx.db.tables.projects.where('namespace_id', owner.id).filter((p) => p.namespace_type === 'user').length
    if (!owner.admin && count >= owner.projects_limit) {
      const message =
        owner.projects_limit === 0
          ? ProjectValidationMessage.personalProjectsNotAllowed
          : ProjectValidationMessage.projectLimit(owner.projects_limit)
      if (options.readsLimitReached) throw new ApiError(403, { error: [message] })
      errors.limit_reached = [message]
    }
  }
  if (Object.keys(errors).length > 0) {
    throw validationFailed({ ...errors, base: [`Unable to save project. Error: ${ModelErrors.from(errors).fullMessages().join(', ')}`], ...limitKey })
  }

  const project = ctx.db.tables.projects.insert(record)
  // gitlab: after_create_actions: `event_service.create_project`, `project_create` system hooks, then
  // setup_authorizations: the owner of a personal namespace becomes a Maintainer member (a `member`
  // fact: `user_add_to_team`); in a group, members are inherited and nobody is added.
  publishProject(ctx, 'create', project)
  if (namespace.kind === 'user') {
    const member = ctx.db.tables.members.insert({
      source_type: 'project',
      source_id: project.id,
      user_id: namespace.user.id,
      access_level: AccessLevel.MAINTAINER,
      expires_at: null,
      created_at: ctx.now,
      updated_at: ctx.now,
      created_by_id: ctx.currentUser?.id ?? owner.id,
      override: false,
    })
    publish(ctx.db, 'member', { action: 'create', member, before: null, expired: false, actorId: ctx.currentUser?.id ?? null, at: ctx.now, baseUrl: ctx.baseUrl })
  }
  return project
}

/**
 * `Projects::UpdateService` with the attributes given. A failed validation renders only the model
 * errors (no `base`, no `limit_reached`).
 * @throws ApiError 400 `{"message":{…}}`.
 */
export function updateProject(ctx: Ctx<unknown>, project: ProjectRecord, attrs: ProjectAttributes, avatarErrors: Record<string, string[]> = {}): ProjectRecord {
  const namespace: ProjectNamespace | undefined =
    project.namespace_type === 'group'
      ? { kind: 'group', group: ctx.db.tables.groups.get(project.namespace_id)! }
      : { kind: 'user', user: ctx.db.tables.users.get(project.namespace_id)! }
  const patch: Partial<ProjectRecord> = {}
  if (attrs.name !== undefined) patch.name = attrs.name
  if (attrs.path !== undefined) patch.path = attrs.path
  if (attrs.description !== undefined) patch.description = attrs.description
  if (attrs.visibility !== undefined) patch.visibility = attrs.visibility
  if (attrs.default_branch !== undefined && present(attrs.default_branch)) patch.default_branch = attrs.default_branch
  if (attrs.merge_method !== undefined) patch.merge_method = attrs.merge_method
  const errors = { ...validate(ctx.db, { ...project, ...patch }, namespace, project.id), ...avatarErrors }
  if (Object.keys(errors).length > 0) throw validationFailed(errors)
  const oldPath = ctx.db.projectFullPath(project)
  const updated = ctx.db.tables.projects.update(project.id, { ...patch, last_activity_at: ctx.now })
  recordProjectMove(ctx.db, updated, oldPath, ctx.now)
  // gitlab: UpdateService#after_update: a changed path is a rename (AfterRenameService's
  // `project_rename`), anything else `project_update`, sent on every successful update.
  if (updated.path !== project.path) publishProject(ctx, 'rename', updated, oldPath)
  else publishProject(ctx, 'update', updated)
  return updated
}

/**
 * Deletes a project and everything in it: issues (with their notes, award emoji and to-dos),
 * labels, milestones, merge requests, members, runners' links, pipelines, snippets, storage moves.
 * spec-gap: GitLab answers 202 and deletes in a background job; fakelab deletes at once, so the
 * next request already finds nothing (as it would once the job has run).
 */
export function destroyProject(db: Db, project: ProjectRecord): void {
  destroyRecords(db, 'projects', [project.id])
}

/**
 * The project's team (`project.team.users`): its direct members and the members of its group and
 * the group's ancestors, once each, by id; memberships past their expiry do not count.
 */
export function projectTeam(db: Db, project: ProjectRecord, today: string): UserRecord[] {
  const sources: [string, number][] = [['project', project.id]]
  const group = db.projectGroup(project)
  if (group) for (const g of db.groupSelfAndAncestors(group)) sources.push(['group', g.id])
  const ids = new Set<number>()
  for (const [type, id] of sources) {
    for (const m of db.tables.members.where('source_id', id)) if (m.source_type === type && activeMembership(m, today)) ids.add(m.user_id)
  }
  return [...ids].sort((a, b) => a - b).map((id) => db.tables.users.get(id)).filter((u): u is UserRecord => u !== undefined)
}

// ---- the project list ---------------------------------------------------------------------------

/** `order_by` values of `GET /projects` (`similarity` without a search orders as `created_at`). */
export const PROJECT_ORDER_COLUMNS = ['id', 'name', 'path', 'created_at', 'updated_at', 'last_activity_at', 'similarity'] as const

/** The sort key of a project for one `order_by` column. */
function sortValue(project: ProjectRecord, column: (typeof PROJECT_ORDER_COLUMNS)[number]): string | number {
  switch (column) {
    case 'id':
      return project.id
    case 'name':
      return project.name.toLowerCase()
    case 'path':
      return project.path.toLowerCase()
    case 'created_at':
    case 'similarity':
      return project.created_at
    case 'updated_at':
    case 'last_activity_at':
      return project.last_activity_at
  }
}

/** The filters and order of `GET /projects`, as validated by the route. */
export interface ProjectListParams {
  order_by: string
  sort: string
  archived?: boolean
  visibility?: string
  search?: string
  owned: boolean
  membership: boolean
  min_access_level?: number
}

/**
 * `GET /projects` (`ProjectsFinder`): the projects the caller can read, filtered, in `order_by`
 * `sort` order with the id tie-breaker in the same direction (not yet paginated).
 * The order of every project is kept with the projects' dense view, so it is sorted once per write
 * to projects and a list only walks it; the caller's access levels are read once per request.
 * Sources: gitlab: app/finders/projects_finder.rb, app/models/project.rb (`search`, `sort_by_attribute`).
 * @param within narrows the list to some projects first (a group's, a user's personal projects):
 *   `GroupProjectsFinder`, `PersonalProjectsFinder`.
 */
export function listProjects(
  ctx: { db: Db; currentUser: UserRecord | null; today: string },
  params: ProjectListParams,
  within?: (project: ProjectRecord) => boolean,
): ProjectRecord[] {
  const { db, currentUser: user, today } = ctx
  const levels = projectLevels(db, user, today)
  // gitlab: app/models/project.rb `search` (fuzzy over path, name and description).
  const matches = params.search !== undefined ? fuzzySearch(params.search, { useMinimumCharLimit: true }) : undefined
  const minLevel = params.min_access_level ?? (params.membership || params.owned ? AccessLevel.GUEST : undefined)
  const column = params.order_by as (typeof PROJECT_ORDER_COLUMNS)[number]
  const direction = params.sort === 'asc' ? 1 : -1
  const view = denseView(db.tables.projects)
  // Positions in order; depends on the projects' rows and the order only (the view's key).
  const order = view.memo(`order:${column}:${direction}`, () => {
    const keys = view.rows.map((project) => sortValue(project, column))
    const positions = Array.from(view.rows, (_, at) => at)
    return positions.sort((a, b) => {
      const x = keys[a]!
      const y = keys[b]!
      return (x < y ? -1 : x > y ? 1 : 0) * direction || (view.rows[a]!.id - view.rows[b]!.id) * direction
    })
  })
  const rows: ProjectRecord[] = []
  for (const at of order) {
    const project = view.rows[at]!
    if (within && !within(project)) continue
    if (!canReadProject(db, user, project, today, levels)) continue
    if (params.archived !== undefined && project.archived !== params.archived) continue
    if (params.visibility && project.visibility !== params.visibility) continue
    // gitlab: User#owned_projects: the personal namespace's projects, and those the user holds
    // Owner access to (a group they own).
    if (params.owned && !(project.namespace_type === 'user' ? project.namespace_id === user?.id : levels(project) >= AccessLevel.OWNER)) continue
    if (minLevel !== undefined && levels(project) < minLevel) continue
    if (matches && !matches(project.path, project.name, project.description)) continue
    rows.push(project)
  }
  return rows
}
