/**
 * The sharing area's error messages: the models' validations as `errors.full_messages.to_sentence`
 * gives them, and the services' refusals.
 * Source: gitlab: app/models/group_group_link.rb, app/models/project_group_link.rb,
 * app/services/groups/group_links/create_service.rb, app/services/projects/group_links/create_service.rb.
 * @module
 */

/** Messages of the share routes (each the whole `message` of the answer). */
export const SharingMessage = {
  /** 404 from either create service: the caller may not share, or cannot read the other group. */
  notFound: 'Not Found',
  /** 409: `GroupGroupLink` uniqueness of `shared_group_id` per `shared_with_group_id` (13.x's message). */
  groupAlreadyShared: 'Shared group already shared with this group',
  /** 409: `GroupGroupLink` `group_access` inclusion in `Gitlab::Access.values` (Guest to Maintainer). */
  groupAccessNotIncluded: 'Group access is not included in the list',
  /** 409: `ProjectGroupLink` uniqueness of `group_id` per `project_id`. */
  projectAlreadyShared: 'Group already shared with this group',
  /** 409: `ProjectGroupLink#different_group`. */
  projectOwnGroup: 'Project cannot be shared with the group it is in or one of its ancestors.',
} as const
