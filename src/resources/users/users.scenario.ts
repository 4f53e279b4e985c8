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
  id: idSchema.optional(),
  /** The secret, for example `glpat-root-fakelab`. Required. */
  token: z.string().min(1),
  /** Display name; faker when absent. */
  name: z.string().optional(),
  /** Default `[api]`. */
  scopes: z.array(z.enum(TOKEN_SCOPES)).default(['api']),
  /** `YYYY-MM-DD`; absent or null = never expires. */
  expires_at: dateSchema.nullable().optional(),
  revoked: z.boolean().default(false),
  impersonation: z.boolean().default(false),
  created_at: timestampSchema.optional(),
  last_used_at: timestampSchema.nullable().optional(),
})

/** An OAuth access token (`oauth_access_tokens`), sent as `Authorization: Bearer` or `access_token=`. */
const oauthTokenSchema = z.strictObject({
  id: idSchema.optional(),
  /** The secret. Required, unique across all tokens. */
  token: z.string().min(1),
  /** The `name` of the top-level `oauth_applications` entry it was issued to; absent = none. */
  application: z.string().min(1).optional(),
  /** Default `[api]`. */
  scopes: z.array(z.enum(TOKEN_SCOPES)).default(['api']),
  /** An instant; absent or null = never expires. */
  expires_at: timestampSchema.nullable().optional(),
  revoked: z.boolean().default(false),
  created_at: timestampSchema.optional(),
})

/**
 * An OAuth application (Doorkeeper's `oauth_applications`, an instance-wide one an administrator
 * registered): the client that obtained the OAuth tokens naming it. gitlab: db/structure.sql
 * `oauth_applications`; doc/api/applications.md.
 */
const oauthApplicationSchema = z.strictObject({
  id: idSchema.optional(),
  /** Unique: tokens name their application by it. */
  name: z.string().min(1),
  /** The client id (`application_id` in the OAuth flow). */
  uid: z.string().min(1),
  /** The client secret. */
  secret: z.string().min(1),
  /** One callback URL per line, as GitLab stores them. */
  redirect_uri: z.string().min(1),
  /** The scopes the application may ask for; its tokens' scopes must be among them. Default `[api]`. */
  scopes: z.array(z.enum(TOKEN_SCOPES)).default(['api']),
  confidential: z.boolean().default(true),
  created_at: timestampSchema.optional(),
})

const root = { oauth_applications: z.array(oauthApplicationSchema).default([]) }

/** The top-level `oauth_applications`, as parsed. */
export type OauthApplicationFields = FieldsOutput<typeof root>

/** The fields of a user besides `id` and `username`. */
const userFields = {
  name: z.string().optional(),
  email: z.string().optional(),
  /** Default false. */
  admin: z.boolean().default(false),
  /** Default `active`. `ldap_blocked`: blocked by the LDAP sync, which the API may neither block nor unblock. */
  state: z.enum(['active', 'blocked', 'ldap_blocked', 'deactivated']).default('active'),
  /** An external user (sees only what they are a member of). Default false. */
  external: z.boolean().default(false),
  avatar_url: z.string().nullable().default(null),
  bio: z.string().default(''),
  location: z.string().default(''),
  public_email: z.string().default(''),
  skype: z.string().default(''),
  linkedin: z.string().default(''),
  twitter: z.string().default(''),
  website_url: z.string().default(''),
  organization: z.string().default(''),
  job_title: z.string().default(''),
  /** null for humans; `project_bot` for the bot user behind a project access token. */
  user_type: z.enum(['project_bot']).nullable().default(null),
  created_at: timestampSchema.optional(),
  last_sign_in_at: timestampSchema.nullable().optional(),
  current_sign_in_at: timestampSchema.nullable().optional(),
  last_activity_on: dateSchema.nullable().optional(),
  can_create_group: z.boolean().default(true),
  projects_limit: z.int().nonnegative().default(100000),
  private_profile: z.boolean().default(false),
  /** Personal access tokens. */
  tokens: z.array(personalAccessTokenSchema).default([]),
  /** OAuth access tokens. */
  oauth_tokens: z.array(oauthTokenSchema).default([]),
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
