/**
 * Creating, changing and deleting snippets: the record, its repository commit, its user agent
 * detail. The files come as 13.x sends them: `files: [{file_path, content}]` (create) or
 * `files: [{action, file_path, previous_path, content}]` (update), or the older single
 * `file_name` + `content`. Every check runs before the first write; the route's transaction undoes
 * the writes of a request that fails later.
 * gitlab: app/services/snippets/create_service.rb, update_service.rb, base_service.rb,
 * app/models/snippet_input_action.rb, snippet_input_action_collection.rb,
 * lib/api/helpers/snippets_helpers.rb (13.12).
 * @module
 */
import { grapeError, serviceError } from '../../core/errors.js'
import type { Db } from '../../db/db.js'
import type { ProjectRecord, UserRecord, Visibility } from '../../db/schema.js'
import { commitSnippetFiles, snippetRepository } from './snippets.repository.js'
import type { SnippetRecord } from './snippets.tables.js'

/** One file action of an update (`SnippetInputAction`). */
export interface SnippetFileAction {
  action: 'create' | 'update' | 'delete' | 'move'
  file_path?: string
  previous_path?: string
  content?: string
}

/** Where the request came from (the user agent detail). */
export interface RequestFacts {
  userAgent: string
  ipAddress: string
}

const ACTIONS = ['create', 'update', 'delete', 'move'] as const

/** A text param of a `files` entry: a string (numbers as Grape coerces them), or undefined. */
function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  return undefined
}

/** `files` as sent: a JSON array, or a form's `files[0][…]` hash; anything else is invalid. */
function entries(raw: unknown): Record<string, unknown>[] | undefined {
  const list = Array.isArray(raw) ? raw : raw !== null && typeof raw === 'object' ? Object.values(raw) : undefined
  if (!list || !list.every((item) => item !== null && typeof item === 'object' && !Array.isArray(item))) return undefined
  return list as Record<string, unknown>[]
}

/**
 * Grape's checks of `files` on create (`create_file_params`): each entry `requires :file_path,
 * :content`, both `allow_blank: false`.
 * @throws ApiError 400 `{"error":"files is invalid"}`, `files[0][file_path] is missing`, `… is empty`.
 */
export function createFiles(raw: unknown): [string, string][] {
  const list = entries(raw)
  if (!list) throw grapeError('files is invalid')
  const errors: string[] = []
  const out: [string, string][] = []
  list.forEach((entry, i) => {
    const path = text(entry.file_path)
    const content = text(entry.content)
    for (const [name, value] of [['file_path', path], ['content', content]] as const) {
      if (value === undefined) errors.push(`files[${i}][${name}] is missing`)
      else if (value.trim() === '') errors.push(`files[${i}][${name}] is empty`)
    }
    if (path !== undefined && content !== undefined) out.push([path, content])
  })
  if (errors.length > 0) throw grapeError(errors.join(', '))
  return out
}

/**
 * Grape's checks of `files` on update (`update_file_params`): `requires :action` among create,
 * update, delete, move.
 * @throws ApiError 400 `{"error":"files[0][action] is missing"}` / `does not have a valid value`.
 */
export function updateFiles(raw: unknown): SnippetFileAction[] {
  const list = entries(raw)
  if (!list) throw grapeError('files is invalid')
  const errors: string[] = []
  const out: SnippetFileAction[] = []
  list.forEach((entry, i) => {
    const action = text(entry.action)
    if (action === undefined) errors.push(`files[${i}][action] is missing`)
    else if (!(ACTIONS as readonly string[]).includes(action)) errors.push(`files[${i}][action] does not have a valid value`)
    else {
      const item: SnippetFileAction = { action: action as SnippetFileAction['action'] }
      const path = text(entry.file_path)
      const previous = text(entry.previous_path)
      const content = text(entry.content)
      if (path !== undefined) item.file_path = path
      if (previous !== undefined) item.previous_path = previous
      if (content !== undefined) item.content = content
      out.push(item)
    }
  })
  if (errors.length > 0) throw grapeError(errors.join(', '))
  return out
}

/** Whether a path is one `file_path: true` and Gitaly accept: no `..` segment, no leading `/`, not blank. */
function validPath(path: string): boolean {
  return path.trim() !== '' && !path.startsWith('/') && !path.split('/').includes('..') && !path.includes('\0')
}

/**
 * `SnippetInputAction` validation (13.12): a path for every action but delete's missing one,
 * content for create and update, a previous path for move, and on update the same path before and
 * after. Invalid → 422 `{"message":{"error":"Snippet actions have invalid data"}}`.
 */
function checkActions(actions: readonly SnippetFileAction[]): void {
  const valid = actions.length > 0 && actions.every((a) => {
    if (a.file_path === undefined || a.file_path.trim() === '') return a.action === 'delete' && a.previous_path !== undefined && a.previous_path !== ''
    if ((a.action === 'create' || a.action === 'update') && (a.content === undefined || a.content === '')) return false
    if (a.action === 'move' && (a.previous_path === undefined || a.previous_path === '')) return false
    if (a.action === 'update' && a.previous_path !== undefined && a.previous_path !== a.file_path) return false
    return true
  })
  if (!valid) throw serviceError(422, 'Snippet actions have invalid data')
}

/**
 * Applies file actions to the current files, as `SnippetRepository#multi_files_action` commits
 * them; a refusal is the repository's commit error, which GitLab reports without its detail.
 * @throws ApiError 400 `{"message":{"error":"Repository Error <creating|updating> the snippet"}}`.
 */
function applyActions(current: ReadonlyMap<string, string>, actions: readonly SnippetFileAction[], creating: boolean): [string, string][] {
  const files = new Map(current)
  const refuse = () => serviceError(400, `Repository Error ${creating ? 'creating' : 'updating'} the snippet`)
  for (const a of actions) {
    const path = a.file_path ?? ''
    switch (a.action) {
      case 'create':
        if (!validPath(path) || files.has(path)) throw refuse()
        files.set(path, a.content ?? '')
        break
      case 'update':
        if (!files.has(path)) throw refuse()
        files.set(path, a.content ?? '')
        break
      case 'delete': {
        const target = path === '' ? (a.previous_path ?? '') : path
        if (!files.delete(target)) throw refuse()
        break
      }
      case 'move': {
        const previous = a.previous_path ?? ''
        if (!files.has(previous) || !validPath(path) || (path !== previous && files.has(path))) throw refuse()
        const content = a.content ?? files.get(previous)!
        files.delete(previous)
        files.set(path, content)
        break
      }
    }
  }
  if (files.size === 0) throw refuse()
  return [...files]
}

/** What a create sends. */
export interface SnippetCreate {
  title: string
  description: string
  visibility: Visibility
  /** `files`, already checked ({@link createFiles}), or the single `file_name` + `content`. */
  files: [string, string][]
}

/**
 * `Snippets::CreateService`: the snippet, its repository's `Initial commit` by the caller, and
 * its user agent detail.
 */
export function createSnippet(db: Db, user: UserRecord, project: ProjectRecord | null, input: SnippetCreate, request: RequestFacts, now: string): SnippetRecord {
  applyActions(new Map(), input.files.map(([file_path, content]) => ({ action: 'create', file_path, content })), true)
  const snippet = db.tables.snippets.insert({
    title: input.title,
    description: input.description,
    visibility: input.visibility,
    author_id: user.id,
    project_id: project?.id ?? null,
    file_name: input.files[0]?.[0] ?? '',
    repository_storage: 'default',
    created_at: now,
    updated_at: now,
  })
  commitSnippetFiles(db, snippet, input.files, { name: user.name, email: user.email }, now, 'Initial commit')
  db.tables.user_agent_details.insert({ subject_id: snippet.id, subject_type: 'Snippet', user_agent: request.userAgent, ip_address: request.ipAddress, akismet_submitted: false })
  return snippet
}

/** What an update sends (each absent when not given). */
export interface SnippetUpdate {
  title?: string | undefined
  description?: string | undefined
  visibility?: Visibility | undefined
  file_name?: string | undefined
  content?: string | undefined
  /** Checked with {@link updateFiles}. */
  files?: SnippetFileAction[] | undefined
}

/**
 * `Snippets::UpdateService`: the attributes, then one `Update snippet` commit of the file
 * actions (`file_name`/`content` become one update or move of the single file).
 * @throws ApiError 400 `{"message":{"error":"To update Snippets with multiple files, you must use the `files` parameter"}}`,
 *   422 `Snippet actions have invalid data`, 400 `Repository Error updating the snippet`.
 */
export function updateSnippet(db: Db, user: UserRecord, snippet: SnippetRecord, input: SnippetUpdate, now: string): SnippetRecord {
  const current = snippetRepository(db, snippet).files
  if ((input.content !== undefined || input.file_name !== undefined) && current.size > 1) {
    throw serviceError(400, 'To update Snippets with multiple files, you must use the `files` parameter')
  }
  let actions = input.files
  if (actions === undefined && (input.content !== undefined || input.file_name !== undefined)) {
    const [previous, old] = [...current][0] ?? [snippet.file_name, '']
    const path = input.file_name ?? previous
    actions = current.size === 0
      ? [{ action: 'create', file_path: path, content: input.content ?? old }]
      : [{ action: path === previous ? 'update' : 'move', file_path: path, previous_path: previous, content: input.content ?? old }]
  }
  let files: [string, string][] | undefined
  if (actions !== undefined) {
    checkActions(actions)
    files = applyActions(current, actions, false)
  }
  const changes: Partial<SnippetRecord> = { updated_at: now }
  if (input.title !== undefined) changes.title = input.title
  if (input.description !== undefined) changes.description = input.description
  if (input.visibility !== undefined) changes.visibility = input.visibility
  if (files) changes.file_name = files[0]![0]
  const updated = db.tables.snippets.update(snippet.id, changes)
  if (files) commitSnippetFiles(db, updated, files, { name: user.name, email: user.email }, now, 'Update snippet')
  return updated
}

/** `Snippets::DestroyService`: the snippet, its repository and user agent detail (notes and awards go by the store's cascade). */
export function destroySnippet(db: Db, snippet: SnippetRecord): void {
  for (const row of db.tables.user_agent_details.where('subject_id', snippet.id)) if (row.subject_type === 'Snippet') db.tables.user_agent_details.delete(row.id)
  if (db.tables.snippet_repositories.get(snippet.id)) db.tables.snippet_repositories.delete(snippet.id)
  db.tables.snippets.delete(snippet.id)
}
