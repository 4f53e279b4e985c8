/**
 * What other areas may use of the protected tags area: whether a tag is protected (the `Tag`
 * entity's `protected`, a pipeline's protected ref) and the pre-receive refusal of a tag change
 * (the tags API, git pushes). gitlab: app/models/protected_tag.rb, lib/gitlab/checks/tag_check.rb.
 * @module
 */
export { canCreateTag, isProtectedTag, protectedTagRefusal } from './protected-tags.service.js'
