/**
 * GitLab's ghost user (`User.ghost`): the one account deleted users' contributions move to.
 * gitlab: app/models/user.rb (`ghost`, `user_type: :ghost`, blocked).
 * @module
 */
import type { Db } from '../../db/db.js'
import type { UserRecord } from '../../db/schema.js'
import { newUserRecord } from '../../rules/user-record.js'

/**
 * The ghost user, created on first use (`ghost`, or `ghost1`, … when that username is taken).
 * @param now the creation time, ISO 8601.
 */
export function ghostUser(db: Db, now: string): UserRecord {
  const existing = db.tables.users.find((u) => u.user_type === 'ghost')
  if (existing) return existing
  let username = 'ghost'
  for (let n = 1; db.findUserByUsername(username); n++) username = `ghost${n}`
  return db.tables.users.insert(
    newUserRecord({
      username,
      name: 'Ghost User',
      email: `${username}@example.com`,
      created_at: now,
      state: 'blocked',
      bio: 'This is a "Ghost User", created to hold all issues authored by users that have since been deleted. This user cannot be removed.',
      user_type: 'ghost',
      can_create_group: false,
      projects_limit: 0,
    }),
  )
}
