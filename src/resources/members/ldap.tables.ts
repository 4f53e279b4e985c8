/**
 * The members area's LDAP table: a group's LDAP group links (GitLab EE `ldap_group_links`), which
 * make the group LDAP-synced. fakelab runs no LDAP sync; the links only say that the group is
 * synced, which is what the member override routes ask (issue 23, item 3).
 * gitlab: ee/app/models/ldap_group_link.rb, ee/app/models/ee/group.rb (`ldap_synced?`), db/structure.sql.
 * @module
 */
import type { Row } from '../../db/collection.js'
import { table } from '../../db/schema.js'

/** One LDAP group link: members of the LDAP group `cn` (on `provider`) get `group_access` in the group. */
export interface LdapGroupLinkRecord extends Row {
  group_id: number
  /** The LDAP group's common name. */
  cn: string
  /** The access level its members get (10 … 50, see `AccessLevel`). */
  group_access: number
  /** The LDAP server's key in gitlab.yml (`ldapmain`). */
  provider: string
}

declare module '../../db/schema.js' {
  interface Tables {
    ldap_group_links: LdapGroupLinkRecord
  }
}

/** The table and its index: links by group. */
export const ldapTables = {
  ldap_group_links: table<LdapGroupLinkRecord>(['group_id']),
}
