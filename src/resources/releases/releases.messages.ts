/**
 * The releases area's messages as GitLab 13.x words them.
 * gitlab: app/services/releases/*.rb, app/models/releases/link.rb, app/validators/addressable_url_validator.rb.
 * @module
 */

/** Messages of the release services and the link model. */
export const ReleaseMessage = {
  /** CreateService, 409. */
  exists: 'Release already exists',
  /** CreateService without the tag and without `ref`, 422. */
  refNotSpecified: 'Ref is not specified',
  /** Update and destroy services when the release's tag is gone, 404. */
  tagMissing: 'Tag does not exist',
  /** UpdateService with nothing to change, 400. */
  paramsEmpty: 'params is empty',
  /** BaseService#inexistent_milestones, 400 (the titles follow). */
  milestonesNotFound: 'Milestone(s) not found:',
  /** `Releases::Link` filepath format. */
  filepathFormat: 'is in an invalid format',
} as const
