/**
 * What other areas may use of the groups area: a group presented as `GroupDetail` the way
 * `GET /groups/:id` presents it, for routes elsewhere that answer with the group (sharing).
 * @module
 */
export { groupDetail } from './groups.present.js'
export { createGroup } from './groups.service.js'
