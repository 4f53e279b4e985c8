/**
 * The `member_invitations` table: pending invitations by email to a project or group (GitLab's
 * `members` rows with an `invite_email`, an `invite_token` and no user yet). An invitation naming an
 * existing user's email is no row here: that user becomes a member at once.
 * gitlab: db/structure.sql (`members`), app/models/member.rb (`invite`, `generate_invite_token`).
 * @module
 */
import type { Row } from '../../db/collection.js'
import { table, type DateString, type Timestamp } from '../../db/schema.js'

/** A pending invitation. */
export interface MemberInvitationRecord extends Row {
  source_type: 'project' | 'group'
  source_id: number
  /** The address invited, as given. */
  invite_email: string
  /** The stored invitation token (GitLab keeps a digest of the one it mails): 64 hex digits. */
  invite_token: string
  /** 10–50 (see `AccessLevel`). */
  access_level: number
  /** `YYYY-MM-DD`, or null for none. */
  expires_at: DateString | null
  /** Who invited; null for a scenario's. */
  created_by_id: number | null
  created_at: Timestamp
  updated_at: Timestamp
}

declare module '../../db/schema.js' {
  interface Tables {
    member_invitations: MemberInvitationRecord
  }
}

/** The table. */
export const invitationTables = {
  member_invitations: table<MemberInvitationRecord>(['source_id']),
}
