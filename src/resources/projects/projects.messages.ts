/**
 * The projects area's validation messages that are not Rails' defaults.
 * gitlab: app/models/project.rb (`check_personal_projects_limit`), app/services/projects/create_service.rb.
 * @module
 */

/** `Project` validation messages. */
export const ProjectValidationMessage = {
  /** `namespace`: a namespace that does not exist or that the creator may not create projects in. */
  namespaceNotValid: 'is not valid',
  /** `limit_reached` of a user whose `projects_limit` is 0. */
  personalProjectsNotAllowed: 'Personal project creation is not allowed. Please contact your administrator with questions',
  /** `limit_reached` of a user at their `projects_limit`. */
  projectLimit: (limit: number) => `Your project limit is ${limit} projects! Please contact your administrator to increase it`,
} as const
