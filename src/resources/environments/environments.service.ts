/**
 * Environments: the slug GitLab generates, the model's validations, the finder's filters, the
 * writes and who may make them. gitlab (13.12): app/models/environment.rb (`generate_slug`,
 * validations), app/finders/environments_finder.rb, app/policies/project_policy.rb
 * (`read_environment` Reporter+, `create_`/`update_`/`stop_environment` Developer+),
 * app/policies/environment_policy.rb (`destroy_environment` only when stopped).
 * @module
 */
import { recordNotFound, ValidationMessage, validationFailed } from '../../core/errors.js'
import type { Ctx } from '../../core/route.js'
import type { Db } from '../../db/db.js'
import type { ProjectRecord } from '../../db/schema.js'
import { AccessLevel, hasProjectAccess } from '../../rules/access.js'
import type { EnvironmentRecord, EnvironmentState } from './environments.tables.js'

/** Whether the caller holds `level` in the project. */
export function canEnvironments(ctx: Ctx<unknown>, project: ProjectRecord, level: 'read' | 'write'): boolean {
  return hasProjectAccess(ctx.db, ctx.currentUser, project, level === 'read' ? AccessLevel.REPORTER : AccessLevel.DEVELOPER, ctx.today)
}

/** `Environment::SUFFIX_CHARS`: lower-case letters and digits. */
const SUFFIX_CHARS = 'abcdefghijklmnopqrstuvwxyz0123456789'

/**
 * `Environment#generate_slug`: the name lower-cased with every other character a dash, `env-`
 * in front unless it starts with a letter, dashes squeezed; when that is longer than 24 or differs
 * from the name, its first 17 characters, a dash, and 6 random letters and digits; else without a
 * trailing dash.
 * @param suffix the 6 random characters (`random_suffix`), used only when the name needs them.
 */
export function generateSlug(name: string, suffix: string): string {
  let slug = name.toLowerCase().replace(/[^a-z0-9]/g, '-')
  if (!/^[a-z]/.test(slug)) slug = `env-${slug}`
  slug = slug.replace(/-+/g, '-')
  if (slug.length > 24 || slug !== name) {
    slug = slug.slice(0, 17)
    if (!slug.endsWith('-')) slug += '-'
    return slug + suffix
  }
  return slug.replace(/-$/, '')
}

/** `Gitlab::Regex.environment_name_regex` and its message (13.12). */
const NAME = /^[a-zA-Z0-9 _/.${}-]+$/
const NAME_MESSAGE = "can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', and spaces, but it cannot start or end with '/'"

/**
 * The model's validations of name and external URL, in declaration order.
 * @throws ApiError 400 `{"message":{"name":[…],"external_url":[…]}}`.
 */
export function validateEnvironment(db: Db, project: ProjectRecord, name: string, externalUrl: string | null, self?: EnvironmentRecord): void {
  const errors: Record<string, string[]> = {}
  const add = (attribute: string, message: string) => (errors[attribute] ??= []).push(message)
  if (name.trim() === '') add('name', ValidationMessage.blank)
  if (name.length > 255) add('name', ValidationMessage.tooLong(255))
  if (name !== '' && (!NAME.test(name) || name.startsWith('/') || name.endsWith('/'))) add('name', NAME_MESSAGE)
  if (db.tables.environments.where('project_id', project.id).some((e) => e.name === name && e.id !== self?.id)) add('name', ValidationMessage.taken)
  if (externalUrl !== null) {
    if (externalUrl.length > 255) add('external_url', ValidationMessage.tooLong(255))
    // `addressable_url: true`: an http(s) URL.
    let url: URL | undefined
    try {
      url = new URL(externalUrl)
    } catch {
      url = undefined
    }
    if (!url) add('external_url', 'is blocked: URI is invalid')
    else if (url.protocol !== 'http:' && url.protocol !== 'https:') add('external_url', 'is blocked: Only allowed schemes are http, https')
  }
  if (Object.keys(errors).length > 0) throw validationFailed(errors)
}

/** `EnvironmentsFinder`'s filters: an exact name, a name substring (`search`), a state. */
export interface EnvironmentFilters {
  name?: string | undefined
  search?: string | undefined
  states?: EnvironmentState | undefined
}

/** The project's environments matching `f`, in id order. */
export function findEnvironments(db: Db, project: ProjectRecord, f: EnvironmentFilters): EnvironmentRecord[] {
  let rows = db.tables.environments.where('project_id', project.id)
  if (f.name !== undefined) rows = rows.filter((e) => e.name === f.name)
  if (f.search !== undefined) {
    const needle = f.search.toLowerCase()
    rows = rows.filter((e) => e.name.toLowerCase().includes(needle))
  }
  if (f.states !== undefined) rows = rows.filter((e) => e.state === f.states)
  return rows
}

/** `user_project.environments.find(id)`. @throws ApiError 404 `{"message":"404 Not found"}`. */
export function findEnvironment(db: Db, project: ProjectRecord, id: number): EnvironmentRecord {
  const env = Number.isSafeInteger(id) ? db.tables.environments.get(id) : undefined
  if (!env || env.project_id !== project.id) throw recordNotFound()
  return env
}

/**
 * `project.environments.create(name:, external_url:)`: validated, slugged, `available`.
 * @throws ApiError 400 `{"message":{"name":["has already been taken"]}}` and the like.
 */
export function createEnvironment(ctx: Ctx<unknown>, project: ProjectRecord, name: string, externalUrl: string | null): EnvironmentRecord {
  validateEnvironment(ctx.db, project, name, externalUrl)
  const slug = generateSlug(name, ctx.faker.string.fromCharacters(SUFFIX_CHARS, 6))
  return ctx.db.tables.environments.insert({ project_id: project.id, name, slug, external_url: externalUrl, state: 'available', created_at: ctx.now, updated_at: ctx.now })
}

/** `environment.update(name:, external_url:)`: the slug stays. @throws ApiError 400 as {@link createEnvironment}. */
export function updateEnvironment(ctx: Ctx<unknown>, project: ProjectRecord, env: EnvironmentRecord, changes: { name?: string | undefined; external_url?: string | undefined }): EnvironmentRecord {
  const name = changes.name ?? env.name
  const externalUrl = changes.external_url ?? env.external_url
  validateEnvironment(ctx.db, project, name, externalUrl, env)
  if (name === env.name && externalUrl === env.external_url) return env
  return ctx.db.tables.environments.update(env.id, { name, external_url: externalUrl, updated_at: ctx.now })
}

/** `environment.stop_with_action!`: an available environment becomes stopped (no `on_stop` job runs). */
export function stopEnvironment(ctx: Ctx<unknown>, env: EnvironmentRecord): EnvironmentRecord {
  if (env.state === 'stopped') return env
  return ctx.db.tables.environments.update(env.id, { state: 'stopped', updated_at: ctx.now })
}
