/**
 * The issue links area's error messages (`render_api_error!(result[:message], result[:http_status])`
 * with the services' messages). gitlab: app/services/issuable_links/create_service.rb,
 * app/services/issue_links/destroy_service.rb, app/models/issue_link.rb (13.11–13.12).
 * @module
 */

/** Messages of the issue link routes. */
export const IssueLinkMessage = {
  /** 409: the target is already related to the issue (`issuables_assigned_message`). */
  alreadyAssigned: 'Issue(s) already assigned',
  /** 404: the caller may not `admin_issue_link` the target (`issuables_not_found_message`, 13.11 wording). */
  notFound: 'No matching issue found. Make sure that you are adding a valid issue URL.',
  /** 404: the caller may not `admin_issue_link` both ends of the link being deleted. */
  linkNotFound: 'No Issue Link found',
  /** 422: the link's validation failed; `ref` is the target's reference (`#1`). */
  cannotBeAdded: (ref: string, errors: string) => `${ref} cannot be added: ${errors}`,
  /** The model error of a link from an issue to itself. */
  selfRelation: 'cannot be related to itself',
} as const
