/**
 * The repository storage move entity and the snippet it nests. Source: api-spec.md "Repository
 * storage move"; gitlab-behaviour.md §6; gitlab: lib/api/entities/basic_repository_storage_move.rb,
 * lib/api/entities/{project,group,snippet}_repository_storage_move.rb,
 * lib/api/entities/basic_snippet.rb, lib/gitlab/url_builder.rb (13.x).
 * @module
 */
import type { StorageMoveState } from '../../rules/repository.js'
import { projectWebUrl, type PresentCtx } from '../../entities/urls.js'
import type { RepositoryStorageMoveRecord, SnippetRecord } from './storage-moves.tables.js'

/** GitLab's `Entities::BasicSnippet` (13.x), in its field order. */
export interface BasicSnippetEntity {
  id: number
  title: string
  description: string
  visibility: string
  updated_at: string
  created_at: string
  project_id: number | null
  /** `<host>/-/snippets/<id>` or `<host>/<project path>/-/snippets/<id>`. */
  web_url: string
  /** `web_url` + `/raw`. */
  raw_url: string
  /** `git@<host>:snippets/<id>.git` or `git@<host>:<project path>/snippets/<id>.git`. */
  ssh_url_to_repo: string
  /** `<host>/snippets/<id>.git` or `<host>/<project path>/snippets/<id>.git`. */
  http_url_to_repo: string
}

/** `BasicSnippet`: the `snippet` of a snippet storage move. URLs per gitlab: lib/gitlab/url_builder.rb. */
export function BasicSnippet(snippet: SnippetRecord, ctx: PresentCtx): BasicSnippetEntity {
  const project = snippet.project_id === null ? undefined : ctx.db.tables.projects.get(snippet.project_id)
  const base = project ? projectWebUrl(ctx, project) : ctx.baseUrl
  const repoPath = project ? `${ctx.db.projectFullPath(project)}/snippets/${snippet.id}.git` : `snippets/${snippet.id}.git`
  const host = new URL(ctx.baseUrl).host.replace(/:\d+$/, '')
  const webUrl = `${base}/-/snippets/${snippet.id}`
  return {
    id: snippet.id,
    title: snippet.title,
    description: snippet.description,
    visibility: snippet.visibility,
    updated_at: snippet.updated_at,
    created_at: snippet.created_at,
    project_id: snippet.project_id,
    web_url: webUrl,
    raw_url: `${webUrl}/raw`,
    ssh_url_to_repo: `git@${host}:${repoPath}`,
    http_url_to_repo: `${ctx.baseUrl}/${repoPath}`,
  }
}

/** A move as presented: `{id, created_at, state, source_storage_name, destination_storage_name, <kind>}`. */
export type RepositoryStorageMoveEntity = {
  id: number
  created_at: string
  state: StorageMoveState
  source_storage_name: string
  destination_storage_name: string
} & { [kind: string]: unknown }

/**
 * `Entities::<Kind>RepositoryStorageMove` (13.x: no `error_message`, added later).
 * @param state the move's state now (see `storageMoveState`).
 * @param key `project`, `group` or `snippet`.
 * @param container the container's nested object, already presented.
 */
export function RepositoryStorageMove(move: RepositoryStorageMoveRecord, state: StorageMoveState, key: string, container: unknown): RepositoryStorageMoveEntity {
  return {
    id: move.id,
    created_at: move.created_at,
    state,
    source_storage_name: move.source_storage_name,
    destination_storage_name: move.destination_storage_name,
    [key]: container,
  }
}
