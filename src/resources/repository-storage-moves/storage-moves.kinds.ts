/**
 * The three kinds of repository storage move (project, group, snippet) as one definition each:
 * where their routes hang, how the container is found and presented, and where its repository
 * lives. The routes are written once and looped over these kinds, as GitLab's three API files are
 * one pattern (gitlab: lib/api/project_repository_storage_moves.rb,
 * lib/api/group_repository_storage_moves.rb, lib/api/snippet_repository_storage_moves.rb).
 * @module
 */
import { findGroup, findProject } from '../../rules/finders.js'
import { notFound } from '../../core/errors.js'
import { p, type ParamSpec } from '../../core/params.js'
import { rubyToI } from '../../core/ruby.js'
import type { RepositoryContainerType } from '../../rules/repository.js'
import type { Ctx } from '../../core/route.js'
import type { Row } from '../../db/collection.js'
import type { Db } from '../../db/db.js'
import type { GroupRecord, ProjectRecord } from '../../db/schema.js'
import { BasicGroupDetails } from '../../entities/group.js'
import { ProjectIdentity } from '../../entities/project.js'
import type { PresentCtx } from '../../entities/urls.js'
import { allSnippets, BasicSnippet, snippetById, type SnippetRecord } from '../snippets/snippets.public.js'

/** What the routes and the service need to know of one container type. */
export interface ContainerKind<C extends Row> {
  readonly type: RepositoryContainerType
  /** `/project_repository_storage_moves`: the instance-wide list, get and bulk schedule. */
  readonly collection: `/${RepositoryContainerType}_repository_storage_moves`
  /** `/projects/:id`: where the per-container routes hang. */
  readonly prefix: string
  /** How `:id` is declared: `String` for all three (projects and groups also take full paths). */
  readonly idParam: ParamSpec
  /**
   * The container for an `:id`.
   * @throws ApiError 404 `{"message":"404 Project Not Found"}` / `Group` / `Snippet`.
   */
  find(ctx: Ctx<unknown>, id: string | number): C
  /** A container by id, without access checks (moves of a page name their containers). */
  get(db: Db, id: number): C | undefined
  /** Every container, for the bulk schedule. */
  all(db: Db): C[]
  /** The storage its repository was created on (before any move). */
  initialStorage(db: Db, container: C): string
  /** Its nested object in the move entity. */
  present(container: C, ctx: PresentCtx): unknown
}

/** Projects: `user_project` (404 when unreadable; an administrator reads every project). */
export const projectKind: ContainerKind<ProjectRecord> = {
  type: 'project',
  collection: '/project_repository_storage_moves',
  prefix: '/projects/:id',
  idParam: p.string({ required: true }),
  find: (ctx, id) => findProject(ctx, id),
  get: (db, id) => db.tables.projects.get(id),
  all: (db) => db.tables.projects.all(),
  initialStorage: (_db, project) => project.repository_storage,
  present: (project, ctx) => ProjectIdentity(project, ctx),
}

/** Groups: `find_group!`; the repository is the group wiki (`group_wiki_repositories`). */
export const groupKind: ContainerKind<GroupRecord> = {
  type: 'group',
  collection: '/group_repository_storage_moves',
  prefix: '/groups/:id',
  idParam: p.string({ required: true }),
  find: (ctx, id) => findGroup(ctx, id),
  get: (db, id) => db.tables.groups.get(id),
  all: (db) => db.tables.groups.all(),
  // A group created through the API has no wiki repository row yet: GitLab would create it on the default storage.
  initialStorage: (db, group) => db.tables.group_wiki_repositories.where('group_id', group.id)[0]?.shard_name ?? 'default',
  present: (group, ctx) => BasicGroupDetails(group, ctx),
}

/**
 * Snippets: `Snippet.find_by(id: params[:id])` with `:id` declared a String, personal or project
 * snippets whatever their visibility (admins only). ActiveRecord casts the id as Ruby's `to_i`
 * reads a leading number (`601abc` is 601; `abc` finds nothing).
 * gitlab: lib/api/snippet_repository_storage_moves.rb.
 */
export const snippetKind: ContainerKind<SnippetRecord> = {
  type: 'snippet',
  collection: '/snippet_repository_storage_moves',
  prefix: '/snippets/:id',
  idParam: p.string({ required: true }),
  find(ctx, id) {
    const snippet = snippetById(ctx.db, rubyToI(String(id)))
    if (!snippet) throw notFound('Snippet')
    return snippet
  },
  get: snippetById,
  all: allSnippets,
  initialStorage: (_db, snippet) => snippet.repository_storage,
  present: (snippet, ctx) => BasicSnippet(snippet, ctx),
}
