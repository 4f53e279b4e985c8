/**
 * `MilestonesFinder` for a group or a project, as the milestone routes use it: the list with its
 * filters and order, and a milestone of the group by id.
 * Sources: gitlab-behaviour.md §9; gitlab: lib/api/milestone_responses.rb (`list_milestones_for`),
 * app/finders/milestones_finder.rb, app/models/concerns/timebox.rb (`search`).
 * @module
 */
import { AccessLevel, directMember, projectAccessLevel } from '../../rules/access.js'
import { fuzzySearch } from '../../rules/fuzzy-search.js'
import { recordNotFound } from '../../core/errors.js'
import { blank } from '../../core/ruby.js'
import type { Db } from '../../db/db.js'
import type { GroupRecord, UserRecord } from '../../db/schema.js'
import type { Source } from '../../rules/source.js'
import type { MilestoneRecord } from './milestones.tables.js'

/**
 * Whether the group passes `Group.public_or_visible_to_user` (13.x): public; internal for any
 * signed-in user; every group for an administrator; else a group the user is a direct member of,
 * or the namespace of a project the user is authorised for.
 */
function groupPublicOrVisible(db: Db, user: UserRecord | null, group: GroupRecord, today: string): boolean {
  if (group.visibility === 'public') return true
  if (!user) return false
  if (user.admin || group.visibility === 'internal') return true
  if (directMember(db, 'group', group.id, user.id, today)) return true
  return db.tables.projects
    .where('namespace_id', group.id)
    .some((project) => project.namespace_type === 'group' && projectAccessLevel(db, user, project, today) >= AccessLevel.GUEST)
}

/** The filters of `GET /groups/:id/milestones` and `GET /projects/:id/milestones`, as declared (plus the undeclared `sort`). */
export interface MilestoneListFilters {
  state: 'active' | 'closed' | 'all'
  iids?: number[]
  title?: string
  search?: string
  include_parent_milestones: boolean
  /** Not declared by the API but passed on to `MilestonesFinder` as Grape keeps undeclared params. */
  sort?: string
}

function compareNullsLast(a: string | null, b: string | null, direction: 1 | -1): number {
  if (a === b) return 0
  if (a === null) return 1
  if (b === null) return -1
  return (a < b ? -1 : 1) * direction
}

function compareText(a: string, b: string, direction: 1 | -1): number {
  return (a < b ? -1 : a > b ? 1 : 0) * direction
}

/**
 * `Milestone.sort_by_attribute(sort)` followed by `with_order_id_desc`: `due_date_asc` (the
 * default), `due_date_desc`, `start_date_asc|desc` (nulls last), `name_asc|desc` (lower-cased
 * title), `created_asc|desc`, `created_date`, `updated_asc|desc`, `id_asc|desc`; anything else
 * orders by id descending only.
 */
function milestoneOrder(sort: string): (a: MilestoneRecord, b: MilestoneRecord) => number {
  const primary = (a: MilestoneRecord, b: MilestoneRecord): number => {
    switch (sort) {
      case 'due_date_asc': return compareNullsLast(a.due_date, b.due_date, 1)
      case 'due_date_desc': return compareNullsLast(a.due_date, b.due_date, -1)
      case 'start_date_asc': return compareNullsLast(a.start_date, b.start_date, 1)
      case 'start_date_desc': return compareNullsLast(a.start_date, b.start_date, -1)
      case 'name_asc': return compareText(a.title.toLowerCase(), b.title.toLowerCase(), 1)
      case 'name_desc': return compareText(a.title.toLowerCase(), b.title.toLowerCase(), -1)
      case 'created_asc': return compareText(a.created_at, b.created_at, 1)
      case 'created_desc': case 'created_date': return compareText(a.created_at, b.created_at, -1)
      case 'updated_asc': return compareText(a.updated_at, b.updated_at, 1)
      case 'updated_desc': return compareText(a.updated_at, b.updated_at, -1)
      case 'id_asc': return a.id - b.id
      default: return 0
    }
  }
  return (a, b) => primary(a, b) || b.id - a.id
}

/**
 * The milestones `MilestonesFinder` starts from (`parent_finder_params`): a group's own, or with
 * `include_parent_milestones` those of itself and its ancestors that the user may see; a
 * project's own, or with `include_parent_milestones` also those of its group and the group's
 * ancestors (`project_group_ids`: not filtered by visibility, the project is readable).
 */
function parentMilestones(db: Db, parent: Source, user: UserRecord | null, includeParents: boolean, today: string): MilestoneRecord[] {
  const ofGroups = (groups: GroupRecord[]) => groups.flatMap((g) => db.tables.milestones.where('group_id', g.id))
  if (parent.type === 'group') {
    return ofGroups(includeParents ? db.groupSelfAndAncestors(parent.group).filter((g) => groupPublicOrVisible(db, user, g, today)) : [parent.group])
  }
  const own = db.tables.milestones.where('project_id', parent.project.id)
  const group = parent.project.namespace_type === 'group' ? db.tables.groups.get(parent.project.namespace_id) : undefined
  return includeParents && group ? [...own, ...ofGroups(db.groupSelfAndAncestors(group))] : own
}

/**
 * `MilestonesFinder` for a group or a project: its own milestones, or with
 * `include_parent_milestones` also its (visible) ancestor groups' (then `iids` is ignored);
 * filtered by `title` (exact, case-sensitive; an empty title matches nothing), `search` (title or
 * description), `state` and `iids`; ordered by due date ascending, nulls last, then id descending.
 * gitlab: lib/api/milestone_responses.rb (`list_milestones_for`, `parent_finder_params`),
 * app/finders/milestones_finder.rb.
 * @param today `YYYY-MM-DD`, for membership expiry.
 */
export function listMilestones(
  db: Db,
  parent: Source,
  user: UserRecord | null,
  filters: MilestoneListFilters,
  today: string,
): MilestoneRecord[] {
  const iids = !filters.include_parent_milestones && filters.iids && filters.iids.length > 0 ? new Set(filters.iids) : null
  // `Timebox.search`: GitLab's fuzzy search over title and description, three-character minimum.
  const search = filters.search === undefined ? null : fuzzySearch(filters.search, { useMinimumCharLimit: true })
  const rows = parentMilestones(db, parent, user, filters.include_parent_milestones, today).filter((milestone) => {
    if (filters.title !== undefined && milestone.title !== filters.title) return false
    if (search !== null && !search(milestone.title, milestone.description)) return false
    if (filters.state !== 'all' && milestone.state !== filters.state) return false
    if (iids && !iids.has(milestone.iid)) return false
    return true
  })
  const sort = filters.sort === undefined || blank(filters.sort) ? 'due_date_asc' : filters.sort
  return rows.sort(milestoneOrder(sort))
}

/**
 * A milestone of this group by its global id (`group.milestones.find(id)`): milestones of other
 * groups, of ancestors and of projects are not found.
 */
function findGroupMilestone(db: Db, group: GroupRecord, id: number): MilestoneRecord | undefined {
  const milestone = db.tables.milestones.get(id)
  return milestone && milestone.group_id === group.id ? milestone : undefined
}

/**
 * `user_project.milestones.find(id)` / `user_group.milestones.find(id)`: only the parent's own.
 * @throws ApiError 404 `{"message":"404 Not found"}` (ActiveRecord::RecordNotFound).
 */
export function findParentMilestone(db: Db, parent: Source, id: number): MilestoneRecord {
  const milestone = parent.type === 'group'
    ? findGroupMilestone(db, parent.group, id)
    : db.tables.milestones.get(id)
  if (!milestone || (parent.type === 'project' && milestone.project_id !== parent.project.id)) throw recordNotFound()
  return milestone
}
