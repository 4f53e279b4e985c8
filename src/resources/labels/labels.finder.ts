/**
 * GitLab's `LabelsFinder` as the label routes use it: which labels a project or group "has
 * available", in title order, and `find_label` (id first, then title).
 * Source: api-spec.md "### Labels"; gitlab-behaviour.md §12.2; gitlab: app/finders/labels_finder.rb,
 * lib/api/helpers.rb `available_labels_for`, lib/api/helpers/label_helpers.rb `find_label`.
 * @module
 */
import { canReadGroup, canReadProject } from '../../rules/access.js'
import { notFound } from '../../core/errors.js'
import { fuzzySearch } from '../../rules/fuzzy-search.js'
import type { Ctx } from '../../core/route.js'
import { rubyToI } from '../../core/ruby.js'
import type { Source } from '../../rules/source.js'
import type { GroupRecord } from '../../db/schema.js'
import type { LabelRecord } from './labels.tables.js'

/** `LabelsFinder` params the API passes. Absent booleans are false, as nil is in Ruby. */
export interface LabelFinderOptions {
  /** Add the labels of the parent group's ancestors. */
  includeAncestorGroups?: boolean
  /** Add the labels of the group's descendants (group parent only). */
  includeDescendantGroups?: boolean
  /** Group parent: leave out the labels of the group's projects. */
  onlyGroupLabels?: boolean
  /** Fuzzy filter on title or description. */
  search?: string
}

/** `available_labels_for(parent)` without params: ancestors included, group labels only. */
export const DEFAULT_FINDER_OPTIONS: LabelFinderOptions = { includeAncestorGroups: true, onlyGroupLabels: true }

/**
 * `find_label(parent, id, include_ancestor_groups: false)`: what update, delete and promote use.
 * Through a project this still reaches the labels of the project's *direct* group (only ancestor
 * groups drop out), and a group parent also reaches the labels of its own projects
 * (`only_group_labels` is unset). // gitlab: app/finders/labels_finder.rb `groups_to_include`;
 * spec/requests/api/labels_spec.rb "with group label" (delete 204 / update 200 for a group member,
 * 403 otherwise; priority alone allowed)
 */
export const WRITE_FINDER_OPTIONS: LabelFinderOptions = { includeAncestorGroups: false }

/**
 * Orders labels like `LabelsFinder#sort` (`title ASC`), ties by id.
 * // spec-gap: PostgreSQL collation decides the real order; we compare code points (the `C`
 * collation GitLab's Omnibus database uses), which is deterministic across machines.
 */
export function compareLabels(a: LabelRecord, b: LabelRecord): number {
  if (a.title !== b.title) return a.title < b.title ? -1 : 1
  return a.id - b.id
}

/**
 * The labels available to a project or group, sorted by title, as `LabelsFinder` computes them
 * for the current user:
 * - project: labels of the project, plus labels of its group (always the direct group, its
 *   ancestors when `includeAncestorGroups`), only groups the user can read;
 * - group: labels of the group (plus ancestors / descendants as asked, readable ones only), plus,
 *   unless `onlyGroupLabels`, the labels of the non-archived projects the user can read that sit
 *   directly in the group or, with `includeDescendantGroups`, in any of its subgroups (issue 23 item 5).
 */
export function availableLabels(ctx: Ctx<unknown>, parent: Source, options: LabelFinderOptions): LabelRecord[] {
  const { db, currentUser: user, today } = ctx
  const labels: LabelRecord[] = []
  // A loop, not push(...spread): a spread of 150,000 labels overflows the call stack.
  const add = (rows: LabelRecord[]): void => {
    for (const row of rows) labels.push(row)
  }
  const groupLabels = (group: GroupRecord, descendants: boolean): void => {
    const chain = options.includeAncestorGroups ? db.groupSelfAndAncestors(group) : [group]
    const groups = descendants ? [...chain, ...db.groupDescendants(group)] : chain
    for (const g of groups) {
      if (canReadGroup(db, user, g, today)) add(db.tables.labels.where('group_id', g.id))
    }
  }
  if (parent.type === 'project') {
    const group = db.projectGroup(parent.project)
    if (group) groupLabels(group, false)
    add(db.tables.labels.where('project_id', parent.project.id))
  } else {
    groupLabels(parent.group, options.includeDescendantGroups === true)
    if (!options.onlyGroupLabels) {
      // `include_descendant_groups` widens the projects too (`LabelsFinder` on `group.self_and_descendants`).
      const groups = options.includeDescendantGroups === true ? [parent.group, ...db.groupDescendants(parent.group)] : [parent.group]
      for (const group of groups) {
        for (const project of db.tables.projects.where('namespace_id', group.id)) {
          if (project.namespace_type !== 'group' || project.archived || !canReadProject(db, user, project, today)) continue
          add(db.tables.labels.where('project_id', project.id))
        }
      }
    }
  }
  // `Label.search`: GitLab's fuzzy search over title and description, one-character terms included.
  const matches = options.search === undefined ? undefined : fuzzySearch(options.search, { useMinimumCharLimit: false })
  const found = matches ? labels.filter((label) => matches(label.title, label.description)) : labels
  return found.sort(compareLabels)
}

/**
 * `find_label(parent, id_or_title, params)`: the available label with that id, else the one with
 * that exact (case-sensitive) title.
 * @param ref the decoded `:label_id` segment, or the `label_id`/`name` parameter of the old forms.
 * @throws ApiError 404 `{"message":"404 Label Not Found"}`.
 */
export function findLabel(ctx: Ctx<unknown>, parent: Source, ref: string | number, options: LabelFinderOptions): LabelRecord {
  const labels = availableLabels(ctx, parent, { ...options, search: undefined })
  const id = rubyToI(ref)
  const title = String(ref)
  const label = labels.find((l) => l.id === id) ?? labels.find((l) => l.title === title)
  if (!label) throw notFound('Label')
  return label
}
