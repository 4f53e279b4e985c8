/**
 * The users area's part of the scenario format: a user's profile, its personal access tokens
 * (`tokens:`) and OAuth tokens (`oauth_tokens:`), and how they become `users`,
 * `personal_access_tokens` and `oauth_access_tokens` rows. Profile strings default to `""`; `name`
 * and timestamps come from faker; `email` defaults to `<username>@example.com`.
 * Source: STYLE.md §10; GitLab 13.x `Gitlab::Auth` scopes.
 * @module
 */
import { z } from 'zod'
import type { OauthAccessTokenRecord, PersonalAccessTokenRecord, UserRecord } from '../../db/schema.js'
import { items, list, str, type Entry } from '../../scenario/entries.js'
import type { CheckContext, FieldsInput, FieldsOutput, LoadContext, ScenarioFragment } from '../../scenario/fragment.js'
import { at, where, type Loc } from '../../scenario/problems.js'
import { dateSchema, idSchema, timestampSchema } from '../../scenario/scalars.js'

/** Scopes a personal access token may carry (GitLab 13.x `Gitlab::Auth` scopes). */
const TOKEN_SCOPES = [
  'api',
  'read_api',
  'read_user',
  'read_repository',
  'write_repository',
  'sudo',
  'read_registry',
  'write_registry',
] as const

/**
 * A personal access token of a user (`personal_access_tokens`). `token` is the secret clients send
 * in `PRIVATE-TOKEN`; it must be unique across all tokens of the scenario.
 */
const personalAccessTokenSchema = z.strictObject({
  /** Optional record id. */
  id: idSchema.optional().describe('Record id; the next free one when absent.'),
  /** The secret, for example `glpat-root-fakelab`. Required. */
  token: z.string().min(1).describe('The secret, sent as PRIVATE-TOKEN (glpat-root-fakelab).'),
  /** Display name; faker when absent. */
  name: z.string().optional().describe('Display name; faker when absent.'),
  /** Default `[api]`. */
  scopes: z.array(z.enum(TOKEN_SCOPES)).default(['api']).describe('Scopes: api, read_api, read_user, sudo, read_repository, write_repository, ... Default [api].'),
  /** `YYYY-MM-DD`; absent or null = never expires. */
  expires_at: dateSchema.nullable().optional().describe('YYYY-MM-DD; absent or null = never expires.'),
  revoked: z.boolean().default(false).describe('Revoked (answers 401). Default false.'),
  impersonation: z.boolean().default(false).describe('An impersonation token (made by an administrator). Default false.'),
  created_at: timestampSchema.optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); faker when absent.'),
  last_used_at: timestampSchema.nullable().optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); null = never used.'),
})

/** An OAuth access token (`oauth_access_tokens`), sent as `Authorization: Bearer` or `access_token=`. */
const oauthTokenSchema = z.strictObject({
  id: idSchema.optional().describe('Record id; the next free one when absent.'),
  /** The secret. Required, unique across all tokens. */
  token: z.string().min(1).describe('The secret, sent as Authorization: Bearer; unique across all tokens.'),
  /** The `name` of the top-level `oauth_applications` entry it was issued to; absent = none. */
  application: z.string().min(1).optional().describe('The name of the top-level oauth_applications entry it was issued to; absent = none.'),
  /** Default `[api]`. */
  scopes: z.array(z.enum(TOKEN_SCOPES)).default(['api']).describe('Scopes (api, read_api, read_user, ...). Default [api].'),
  /** An instant; absent or null = never expires. */
  expires_at: timestampSchema.nullable().optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); absent or null = never expires.'),
  revoked: z.boolean().default(false).describe('Revoked (answers 401). Default false.'),
  created_at: timestampSchema.optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); faker when absent.'),
})

/**
 * An OAuth application (Doorkeeper's `oauth_applications`, an instance-wide one an administrator
 * registered): the client that obtained the OAuth tokens naming it. gitlab: db/structure.sql
 * `oauth_applications`; doc/api/applications.md.
 */
const oauthApplicationSchema = z.strictObject({
  id: idSchema.optional().describe('Record id; the next free one when absent.'),
  /** Unique: tokens name their application by it. */
  name: z.string().min(1).describe('Name, unique: tokens name their application by it.'),
  /** The client id (`application_id` in the OAuth flow). */
  uid: z.string().min(1).describe('The client id (application_id in the OAuth flow).'),
  /** The client secret. */
  secret: z.string().min(1).describe('The client secret.'),
  /** One callback URL per line, as GitLab stores them. */
  redirect_uri: z.string().min(1).describe('Callback URLs, one per line.'),
  /** The scopes the application may ask for; its tokens' scopes must be among them. Default `[api]`. */
  scopes: z.array(z.enum(TOKEN_SCOPES)).default(['api']).describe('The scopes it may ask for; its tokens\' scopes must be among them. Default [api].'),
  confidential: z.boolean().default(true).describe('A confidential client (can keep its secret). Default true.'),
  created_at: timestampSchema.optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); faker when absent.'),
})

const root = { oauth_applications: z.array(oauthApplicationSchema).default([]).describe('Instance-wide OAuth applications (GET /applications).') }

/** The top-level `oauth_applications`, as parsed. */
export type OauthApplicationFields = FieldsOutput<typeof root>

/** The fields of a user besides `id` and `username`. */
const userFields = {
  name: z.string().optional().describe('Full name; faker when absent.'),
  email: z.string().optional().describe('Primary email; faker when absent.'),
  password: z.string().min(1).optional().describe('A password git over HTTP accepts for the user (HTTP Basic with the username or email, as Gitlab::Auth does when password authentication for git is on); absent: none, only tokens authenticate.'),
  /** Default false. */
  admin: z.boolean().default(false).describe('An administrator. Default false.'),
  /** Default `active`. `ldap_blocked`: blocked by the LDAP sync, which the API may neither block nor unblock. */
  state: z.enum(['active', 'blocked', 'ldap_blocked', 'blocked_pending_approval', 'deactivated']).default('active').describe('active, blocked, ldap_blocked (blocked by the LDAP sync), blocked_pending_approval (awaiting an administrator\'s approval) or deactivated. Default active.'),
  /** An external user (sees only what they are a member of). Default false. */
  external: z.boolean().default(false).describe('An external user (sees only what they are a member of). Default false.'),
  avatar_url: z.string().nullable().default(null).describe('Avatar URL; null = none. Default null.'),
  bio: z.string().default('').describe('Profile bio. Default empty.'),
  location: z.string().default('').describe('Profile location. Default empty.'),
  public_email: z.string().default('').describe('Public email shown on the profile. Default empty.'),
  skype: z.string().default('').describe('Skype name. Default empty.'),
  linkedin: z.string().default('').describe('LinkedIn name. Default empty.'),
  twitter: z.string().default('').describe('Twitter name. Default empty.'),
  website_url: z.string().default('').describe('Website URL. Default empty.'),
  organization: z.string().default('').describe('Organization. Default empty.'),
  job_title: z.string().default('').describe('Job title. Default empty.'),
  /** null for humans; `project_bot` for the bot user behind a project access token. */
  user_type: z.enum(['project_bot']).nullable().default(null).describe('null for humans; project_bot for the bot user behind a project access token. Default null.'),
  created_at: timestampSchema.optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); faker when absent.'),
  last_sign_in_at: timestampSchema.nullable().optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); null = never.'),
  current_sign_in_at: timestampSchema.nullable().optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); null = never.'),
  last_activity_on: dateSchema.nullable().optional().describe('YYYY-MM-DD; null = never.'),
  can_create_group: z.boolean().default(true).describe('Whether the user may create top-level groups. Default true.'),
  projects_limit: z.int().nonnegative().default(100000).describe('How many personal projects the user may create. Default 100000.'),
  private_profile: z.boolean().default(false).describe('Hide the profile from others. Default false.'),
  identities: z.array(z.strictObject({
    provider: z.string().min(1).describe('The sign-in provider (ldapmain, github, saml, ...).'),
    extern_uid: z.string().describe('The user\'s id at the provider.'),
  })).optional().describe('External identities (shown in identities to administrators and the user; GET /users?provider=&extern_uid=).'),
  /** Personal access tokens. */
  tokens: z.array(personalAccessTokenSchema).default([]).describe('Personal access tokens.'),
  /** OAuth access tokens. */
  oauth_tokens: z.array(oauthTokenSchema).default([]).describe('OAuth access tokens.'),
}

/** A user's fields as parsed. */
export type UserFields = FieldsOutput<typeof userFields>
/** A personal access token of a user, as parsed. */
export type ScenarioPersonalAccessToken = z.output<typeof personalAccessTokenSchema>

declare module '../../scenario/records.js' {
  interface ScenarioUser extends UserFields {}
  interface Scenario extends Partial<OauthApplicationFields> {}
  interface ScenarioInput extends Partial<FieldsInput<typeof root>> {}
  interface ScenarioUserInput extends FieldsInput<typeof userFields> {}
}

/**
 * Application names, uids and ids are unique; each OAuth token names a known application and asks
 * only for scopes the application has (Doorkeeper refuses others at authorization).
 */
function checkApplications(ctx: CheckContext): void {
  const apps = new Map<string, string[]>()
  if (ctx.root) {
    const seen: Record<'name' | 'uid' | 'id', Map<unknown, Loc>> = { name: new Map(), uid: new Map(), id: new Map() }
    for (const app of items(ctx.root, 'oauth_applications')) {
      for (const key of ['name', 'uid', 'id'] as const) {
        const value = app.value[key]
        if (value === undefined) continue
        const first = seen[key].get(value)
        if (first) ctx.report(at(app, key), `duplicate oauth_applications ${key} (first used by ${where(first, app)})`)
        else seen[key].set(value, app)
      }
      const name = str(app.value.name)
      const scopes = Array.isArray(app.value.scopes) ? app.value.scopes.filter((s): s is string => typeof s === 'string') : ['api']
      if (name !== undefined && !apps.has(name)) apps.set(name, scopes)
    }
  }
  for (const user of ctx.model.user) {
    for (const token of items(user, 'oauth_tokens')) {
      const name = token.value.application
      if (name === undefined) continue
      const scopes = apps.get(String(name))
      if (!scopes) {
        ctx.report(at(token, 'application'), `unknown OAuth application "${String(name)}" (not in oauth_applications)`)
        continue
      }
      const asked = Array.isArray(token.value.scopes) ? token.value.scopes : ['api']
      for (const [scope, i] of list(asked)) {
        if (typeof scope === 'string' && !scopes.includes(scope)) ctx.report(at(token, 'scopes', i), `scope "${scope}" is not one of application "${String(name)}"'s scopes`)
      }
    }
  }
}

/** OAuth tokens staged by one load whose application is resolved once the applications are in (root load). */
const pendingApplications = new WeakMap<LoadContext, { tokenId: number; application: string }[]>()

/** Every token is unique across personal and OAuth tokens (they are looked up by value). */
function checkTokens(users: Entry[], report: (loc: Loc, message: string) => void): void {
  const tokens = new Map<string, Loc>()
  for (const user of users) {
    for (const token of [...items(user, 'tokens'), ...items(user, 'oauth_tokens')]) {
      const value = str(token.value.token)
      if (value === undefined) continue
      const first = tokens.get(value)
      if (first) report(at(token, 'token'), `duplicate token (first used by ${where(first, token)})`)
      else tokens.set(value, token)
    }
  }
}

/** The users fragment (see the module comment). */
export const userFragment: ScenarioFragment = {
  need: { always: 'its build makes every user\'s row (users are built by this fragment alone)' },
  fields: { user: userFields },
  collections: [
    { table: 'personal_access_tokens', field: 'tokens', on: ['user'] },
    { table: 'oauth_access_tokens', field: 'oauth_tokens', on: ['user'] },
  ],
  root,
  check(ctx) {
    checkTokens(ctx.model.user, ctx.report)
    checkApplications(ctx)
  },
  build: {
    user(ctx, u) {
      const f = ctx.fake(`user:${u.username.toLowerCase()}`)
      const created_at = u.created_at ?? ctx.past(f)
      const last_sign_in_at = u.last_sign_in_at !== undefined ? u.last_sign_in_at : ctx.between(f, created_at)
      const current_sign_in_at = u.current_sign_in_at !== undefined ? u.current_sign_in_at : ctx.between(f, last_sign_in_at ?? created_at)
      const last_activity_on =
        u.last_activity_on !== undefined ? u.last_activity_on : ctx.between(f, current_sign_in_at ?? created_at).slice(0, 10)
      const record: UserRecord = {
        id: ctx.idOf(u),
        username: u.username,
        name: u.name ?? f.person.fullName(),
        email: u.email ?? `${u.username.toLowerCase()}@example.com`,
        state: u.state,
        admin: u.admin,
        avatar_url: u.avatar_url,
        bio: u.bio,
        location: u.location,
        public_email: u.public_email,
        skype: u.skype,
        linkedin: u.linkedin,
        twitter: u.twitter,
        website_url: u.website_url,
        organization: u.organization,
        job_title: u.job_title,
        user_type: u.user_type,
        created_at,
        last_sign_in_at,
        current_sign_in_at,
        last_activity_on,
        can_create_group: u.can_create_group,
        projects_limit: u.projects_limit,
        private_profile: u.private_profile,
        external: u.external,
        ...(u.password !== undefined ? { password: u.password } : {}),
        ...(u.identities && u.identities.length > 0 ? { identities: u.identities.map((i) => ({ provider: i.provider, extern_uid: i.extern_uid })) } : {}),
      }
      return record
    },
  },
  load: {
    user(ctx, u, user) {
      for (const t of u.tokens) {
        const f = ctx.fake(`personal_access_token:${t.token}`)
        ctx.stage('personal_access_tokens', {
          id: ctx.idOf(t),
          user_id: user.id,
          name: t.name ?? `${f.hacker.adjective()} ${f.hacker.noun()}`,
          token: t.token,
          scopes: [...t.scopes],
          revoked: t.revoked,
          expires_at: t.expires_at ?? null,
          impersonation: t.impersonation,
          created_at: t.created_at ?? ctx.between(f, user.created_at),
          last_used_at: t.last_used_at ?? null,
        } satisfies PersonalAccessTokenRecord)
      }
      for (const t of u.oauth_tokens) {
        const f = ctx.fake(`oauth_access_token:${t.token}`)
        if (t.application !== undefined) {
          const pending = pendingApplications.get(ctx) ?? []
          pending.push({ tokenId: ctx.idOf(t), application: t.application })
          pendingApplications.set(ctx, pending)
        }
        ctx.stage('oauth_access_tokens', {
          id: ctx.idOf(t),
          user_id: user.id,
          application_id: null,
          token: t.token,
          scopes: [...t.scopes],
          revoked: t.revoked,
          expires_at: t.expires_at ?? null,
          created_at: t.created_at ?? ctx.between(f, user.created_at),
        } satisfies OauthAccessTokenRecord)
      }
    },
    root(ctx, scenario) {
      // Applications come after the users (root fields load last), so their tokens learn their
      // application_id here. Ids: the explicit ones, then past the highest, in order.
      const apps = (scenario.oauth_applications ?? []) as OauthApplicationFields['oauth_applications']
      let next = Math.max(0, ...apps.map((app) => app.id ?? 0))
      const ids = new Map<string, number>()
      const withIds = apps.map((app) => ({ app, id: app.id ?? ++next })).sort((a, b) => a.id - b.id)
      for (const { app, id } of withIds) {
        const f = ctx.fake(`oauth_application:${app.uid}`)
        ids.set(app.name, id)
        ctx.db.tables.oauth_applications.insert({
          id,
          name: app.name,
          uid: app.uid,
          secret: app.secret,
          redirect_uri: app.redirect_uri,
          scopes: [...app.scopes],
          confidential: app.confidential,
          owner_id: null,
          created_at: app.created_at ?? ctx.past(f),
        })
      }
      for (const { tokenId, application } of pendingApplications.get(ctx) ?? []) {
        ctx.db.tables.oauth_access_tokens.update(tokenId, { application_id: ids.get(application)! })
      }
      pendingApplications.delete(ctx)
    },
  },
}
