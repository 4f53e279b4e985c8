/**
 * A new user row with GitLab's column defaults: an active, non-admin human with an empty profile,
 * never signed in. Whoever creates users (the API, the ghost user) states only what differs.
 * Source: gitlab: db/structure.sql (`users` defaults), app/models/user.rb.
 * @module
 */
import type { UserRecord } from '../db/schema.js'

/**
 * @param fields the identity and creation time, plus any column that differs from the defaults.
 * @returns a row to insert (no `id`: the table's sequence gives it).
 */
export function newUserRecord(
  fields: Pick<UserRecord, 'username' | 'name' | 'email' | 'created_at'> & Partial<Omit<UserRecord, 'id'>>,
): Omit<UserRecord, 'id'> {
  return {
    state: 'active',
    admin: false,
    avatar_url: null,
    bio: '',
    location: '',
    public_email: '',
    skype: '',
    linkedin: '',
    twitter: '',
    website_url: '',
    organization: '',
    job_title: '',
    user_type: null,
    last_sign_in_at: null,
    current_sign_in_at: null,
    last_activity_on: null,
    can_create_group: true,
    projects_limit: 100_000,
    private_profile: false,
    external: false,
    ...fields,
  }
}
