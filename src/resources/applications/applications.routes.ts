/**
 * OAuth applications, administrators only: `POST /applications` registers an instance-wide
 * application and answers its secret once (`ApplicationWithSecret`), `GET /applications` lists the
 * instance-wide ones (`owner_id` nil), `DELETE /applications/:id` deletes one, and with it every
 * token issued to it (Doorkeeper's `has_many :access_tokens, dependent: :delete_all`), so those
 * tokens stop authenticating. The table is the users area's (`oauth_applications`), written here
 * (`Area.writes`). gitlab: lib/api/applications.rb, lib/api/entities/application.rb,
 * application_with_secret.rb, app/finders/applications_finder.rb (13.12); doorkeeper 5.x
 * (`Doorkeeper::Application` validations, `UniqueToken.generate`).
 * @module
 */
import { recordNotFound, validationFailed } from '../../core/errors.js'
import { p } from '../../core/params.js'
import { created, noContent, ok } from '../../core/respond.js'
import { route, type Route } from '../../core/route.js'
import type { Tables } from '../../db/schema.js'

type OauthApplicationRecord = Tables['oauth_applications']

/** `Entities::Application`: `id`, `application_id` (uid), `application_name`, `callback_url`, `confidential`. */
function Application(app: OauthApplicationRecord) {
  return { id: app.id, application_id: app.uid, application_name: app.name, callback_url: app.redirect_uri, confidential: app.confidential }
}

/** `Entities::ApplicationWithSecret`: the application, then its `secret`. */
function ApplicationWithSecret(app: OauthApplicationRecord) {
  return { ...Application(app), secret: app.secret }
}

/** `validate_redirect_uri`: an http(s) URI must name a host; anything else that parses passes. */
function redirectUriHasHost(value: string): boolean {
  if (!/^[a-z][a-z0-9+.-]*:/i.test(value)) return true
  try {
    const uri = new URL(value)
    return !['http:', 'https:'].includes(uri.protocol) || uri.host !== ''
  } catch {
    return false
  }
}

/** The OAuth scopes Doorkeeper is configured with in 13.12 CE (`Gitlab::Auth` API, OpenID and profile scopes). */
const CONFIGURED_SCOPES = new Set(['api', 'read_user', 'read_api', 'read_repository', 'write_repository', 'sudo', 'openid', 'profile', 'email'])

/** The applications routes. */
export const applicationRoutes: Route[] = [
  route('POST /applications', {
    auth: 'admin',
    params: {
      name: p.string({ required: true }),
      redirect_uri: p.string({ required: true }),
      scopes: p.string({ required: true }),
      confidential: p.boolean(),
    },
    handler(ctx) {
      const { name, redirect_uri: redirectUri, scopes } = ctx.params
      if (!redirectUriHasHost(redirectUri)) throw validationFailed({ redirect_uri: ['must be an absolute URI.'] })
      // Doorkeeper::Application's validations, in declaration order.
      const errors: Record<string, string[]> = {}
      if (name.trim() === '') errors.name = ["can't be blank"]
      if (redirectUri.trim() === '') errors.redirect_uri = ["can't be blank"]
      else if (!/^[a-z][a-z0-9+.-]*:/i.test(redirectUri)) errors.redirect_uri = ['must be an absolute URI.']
      else if (redirectUri.includes('#')) errors.redirect_uri = ['cannot contain a fragment.']
      const list = scopes.split(/\s+/).filter((s) => s !== '')
      if (list.some((s) => !CONFIGURED_SCOPES.has(s))) errors.scopes = ["doesn't match configured on the server."]
      if (Object.keys(errors).length > 0) throw validationFailed(errors)
      const app = ctx.db.tables.oauth_applications.insert({
        name,
        uid: ctx.faker.string.hexadecimal({ length: 64, casing: 'lower', prefix: '' }),
        secret: ctx.faker.string.hexadecimal({ length: 64, casing: 'lower', prefix: '' }),
        redirect_uri: redirectUri,
        scopes: list,
        confidential: ctx.params.confidential ?? true,
        owner_id: null,
        created_at: ctx.now,
      })
      return created(ApplicationWithSecret(app))
    },
  }),

  // ApplicationsFinder: `Doorkeeper::Application.where(owner_id: nil)`, not paginated.
  route('GET /applications', {
    auth: 'admin',
    handler(ctx) {
      const apps = ctx.db.tables.oauth_applications.all().filter((a) => a.owner_id === null).sort((a, b) => a.id - b.id)
      return ok(apps.map(Application))
    },
  }),

  route('DELETE /applications/:id', {
    auth: 'admin',
    params: { id: p.integer({ required: true }) },
    handler(ctx) {
      // ApplicationsFinder#by_id: `find_by(id:)`, any application. spec-gap: GitLab 13.12 calls
      // `destroy` on nil for an unknown id (a 500); fakelab answers 404.
      const app = ctx.db.tables.oauth_applications.get(ctx.params.id)
      if (!app) throw recordNotFound()
      for (const token of ctx.db.tables.oauth_access_tokens.all()) {
        if (token.application_id === app.id) ctx.db.tables.oauth_access_tokens.delete(token.id)
      }
      ctx.db.tables.oauth_applications.delete(app.id)
      return noContent()
    },
  }),
]
