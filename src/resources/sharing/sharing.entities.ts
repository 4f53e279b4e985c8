/**
 * The sharing area's entity: `ProjectGroupLink` (gitlab: lib/api/entities/project_group_link.rb,
 * 13.x), what `POST /projects/:id/share` answers. The `shared_with_groups` lists of groups and
 * projects are shared entities (src/entities/group.ts, project.ts).
 * @module
 */
import type { ProjectGroupLinkRecord } from '../../db/schema.js'

/** `{id, project_id, group_id, group_access, expires_at}`. */
export function ProjectGroupLink(link: ProjectGroupLinkRecord) {
  return { id: link.id, project_id: link.project_id, group_id: link.group_id, group_access: link.group_access, expires_at: link.expires_at }
}
