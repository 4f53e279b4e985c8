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
import { items, str, type Entry } from '../../scenario/entries.js'
import type { FieldsInput, FieldsOutput, ScenarioFragment } from '../../scenario/fragment.js'
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
  /** Default `[api]`. */
  scopes: z.array(z.enum(TOKEN_SCOPES)).default(['api']),
  /** An instant; absent or null = never expires. */
  expires_at: timestampSchema.nullable().optional(),
  revoked: z.boolean().default(false),
  created_at: timestampSchema.optional(),
})

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
  interface ScenarioUserInput extends FieldsInput<typeof userFields> {}
}

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
  check: (ctx) => checkTokens(ctx.model.user, ctx.report),
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
        ctx.stage('oauth_access_tokens', {
          id: ctx.idOf(t),
          user_id: user.id,
          token: t.token,
          scopes: [...t.scopes],
          revoked: t.revoked,
          expires_at: t.expires_at ?? null,
          created_at: t.created_at ?? ctx.between(f, user.created_at),
        } satisfies OauthAccessTokenRecord)
      }
    },
  },
}
