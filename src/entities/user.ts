/**
 * User entities. Field order follows GitLab 13.x `lib/api/entities/user_basic.rb`, `user.rb`,
 * `user_public.rb` (gitlab-behaviour.md §4.1 "UserBasic").
 * @module
 */
import type { UserRecord } from '../db/schema.js'
import { userWebUrl, type PresentCtx } from './urls.js'

/**
 * A user's `avatar_url`: as the scenario wrote it, or for an uploaded avatar (stored as its path,
 * `/uploads/-/system/user/avatar/:id/:filename`) under the base URL, as GitLab's
 * `avatar_url(only_path: false)` builds it from its configured host.
 */
export function avatarUrl(ctx: PresentCtx, user: UserRecord): string | null {
  const url = user.avatar_url
  return url !== null && url.startsWith('/') ? `${ctx.baseUrl}${url}` : url
}

/** `{id, name, username, state, avatar_url, web_url}`: how users appear inside other entities. */
export function UserBasic(user: UserRecord, ctx: PresentCtx) {
  return {
    id: user.id,
    name: user.name,
    username: user.username,
    state: user.state,
    avatar_url: avatarUrl(ctx, user),
    web_url: userWebUrl(ctx, user),
  }
}

/** `GET /users/:id`: UserBasic plus the public profile. */
export function User(user: UserRecord, ctx: PresentCtx) {
  return {
    ...UserBasic(user, ctx),
    created_at: user.created_at,
    bio: user.bio,
    bio_html: user.bio === '' ? '' : `<p data-sourcepos="1:1-1:${user.bio.length}" dir="auto">${escapeHtml(user.bio)}</p>`,
    location: user.location,
    public_email: user.public_email,
    skype: user.skype,
    linkedin: user.linkedin,
    twitter: user.twitter,
    website_url: user.website_url,
    organization: user.organization,
    job_title: user.job_title,
    bot: user.user_type === 'project_bot',
    work_information: user.organization === '' ? null : user.organization,
  }
}

/** `GET /user` (and `/users/:id` seen by an administrator): the private profile too. */
export function UserPublic(user: UserRecord, ctx: PresentCtx) {
  return {
    ...User(user, ctx),
    last_sign_in_at: user.last_sign_in_at,
    confirmed_at: user.created_at,
    last_activity_on: user.last_activity_on,
    email: user.email,
    theme_id: 1,
    color_scheme_id: 1,
    projects_limit: user.projects_limit,
    current_sign_in_at: user.current_sign_in_at,
    identities: (user.identities ?? []).map((i) => ({ provider: i.provider, extern_uid: i.extern_uid })),
    can_create_group: user.can_create_group,
    can_create_project: user.projects_limit > 0,
    two_factor_enabled: false,
    external: user.external ?? false,
    private_profile: user.private_profile,
    ...(ctx.currentUser?.admin ? { is_admin: user.admin } : {}),
  }
}

/**
 * `UserWithAdmin`: what administrators see of a user (`GET /users` as an administrator, and the
 * answers of `POST /users` and `PUT /users/:id`): UserPublic plus `is_admin`.
 * gitlab: lib/api/entities/user_with_admin.rb.
 */
export function UserWithAdmin(user: UserRecord, ctx: PresentCtx) {
  return { ...UserPublic(user, ctx), is_admin: user.admin }
}

/** Minimal HTML escaping for rendered single-line markdown. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
}

/** Users by id, in the given order, unknown ids skipped. */
export function usersByIds(ctx: PresentCtx, ids: readonly number[]): UserRecord[] {
  const users: UserRecord[] = []
  for (const id of ids) {
    const user = ctx.db.tables.users.get(id)
    if (user) users.push(user)
  }
  return users
}

/** `UserBasic` of a user id, or null when the id is null or the user is gone. */
export function userBasicOrNull(ctx: PresentCtx, id: number | null) {
  const user = id === null ? undefined : ctx.db.tables.users.get(id)
  return user ? UserBasic(user, ctx) : null
}
