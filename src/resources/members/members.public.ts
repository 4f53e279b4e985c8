/**
 * What other areas may use of the members area: the member administration check, the direct
 * members of a source, the membership validations, and adding a user as a member (the
 * invitations area invites an existing user's email this way). Nothing here imports another area.
 * gitlab: lib/api/helpers/members_helpers.rb, app/models/member.rb.
 * @module
 */
export { authorizeAdminMembers } from './members.policy.js'
export { directMembers } from './members.finder.js'
export { addUserByInvitation, allowedAccessLevels } from './members.service.js'
export { MemberValidationMessage } from './members.messages.js'
