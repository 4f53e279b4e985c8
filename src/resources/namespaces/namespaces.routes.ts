/**
 * `GET /namespaces`, `/namespaces/:id` and `/namespaces/:namespace/exists`. The list: an administrator sees every namespace, anyone else their personal namespace
 * and the groups they are a direct member of; `search` is GitLab's fuzzy search over name and path.
 * Source: gitlab: lib/api/namespaces.rb, app/models/user.rb (`namespaces`), app/models/namespace.rb
 * (`search`), lib/api/entities/namespace.rb, lib/api/entities/namespace_basic.rb.
 * @module
 */
import { AccessLevel, activeMembership, hasGroupAccess } from '../../rules/access.js'
import { fuzzySearch } from '../../rules/fuzzy-search.js'
import { notFound } from '../../core/errors.js'
import { paginationParams } from '../../core/pagination.js'
import { p } from '../../core/params.js'
import { ok, paginated } from '../../core/respond.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import { denseView } from '../../db/dense.js'
import type { GroupRecord, UserRecord } from '../../db/schema.js'
import { GroupNamespaceBasic, UserNamespaceBasic } from '../../entities/project.js'

/** A namespace row: a group, or a user's personal namespace (same id as the user, see projects' `findNamespace`). */
type NamespaceRow = { kind: 'group'; group: GroupRecord } | { kind: 'user'; user: UserRecord }

/** `NamespaceBasic` of a namespace row. */
function basic(row: NamespaceRow, ctx: Ctx<unknown>) {
  return row.kind === 'group' ? GroupNamespaceBasic(row.group, ctx) : UserNamespaceBasic(row.user, row.user.id, ctx)
}

/**
 * `Entities::Namespace`: NamespaceBasic plus, for a group the caller may administer (Owner),
 * `members_count_with_descendants`: the distinct users who are members of the group or of a
 * group below it.
 */
function Namespace(row: NamespaceRow, ctx: Ctx<unknown>) {
  const out = basic(row, ctx)
  if (row.kind !== 'group' || !hasGroupAccess(ctx.db, ctx.currentUser, row.group, AccessLevel.OWNER, ctx.today)) return out
  const users = new Set<number>()
  for (const g of [row.group, ...ctx.db.groupDescendants(row.group)]) {
    for (const m of ctx.db.tables.members.where('source_id', g.id)) {
      if (m.source_type === 'group' && activeMembership(m, ctx.today)) users.add(m.user_id)
    }
  }
  return { ...out, members_count_with_descendants: users.size }
}

/** gitlab: User#namespaces: the personal namespace and the groups of direct memberships. */
function ownNamespaces(ctx: Ctx<unknown>, user: UserRecord, today: string): NamespaceRow[] {
  const { db } = ctx
  const groupIds = new Set(
    db.tables.members.where('user_id', user.id).filter((m) => m.source_type === 'group' && activeMembership(m, today)).map((m) => m.source_id),
  )
  return [
    { kind: 'user', user },
    ...[...groupIds].map((id) => db.tables.groups.get(id)).filter((g): g is GroupRecord => g !== undefined).map((group): NamespaceRow => ({ kind: 'group', group })),
  ]
}

/** `rows` that `search` (GitLab's fuzzy search over name and path) finds, by id (a new array). */
function namespaceList(rows: NamespaceRow[], search: string | undefined): NamespaceRow[] {
  if (search !== undefined) {
    const matches = fuzzySearch(search, { useMinimumCharLimit: true })
    rows = rows.filter((row) => (row.kind === 'group' ? matches(row.group.name, row.group.path) : matches(row.user.name, row.user.username)))
  }
  // By id, as `paginate` orders an unordered relation; spec-gap: where a group and a personal
  // namespace share an id (fakelab numbers them apart), the group comes first.
  const idOf = (row: NamespaceRow) => (row.kind === 'group' ? row.group.id : row.user.id)
  return rows.sort((a, b) => idOf(a) - idOf(b) || (a.kind === 'group' ? -1 : 1))
}

/** Routes of the namespaces area. */
export const namespaceRoutes: Route[] = [
  route('GET /namespaces', {
    params: { ...paginationParams, search: p.string() },
    handler(ctx) {
      const { db, currentUser, today } = ctx
      const user = currentUser!
      const search = ctx.params.search
      // An administrator's list reads the groups and users tables only: kept with the users' dense
      // view (dropped at a write to users), keyed by the groups' version and the search.
      const rows = user.admin
        ? denseView(db.tables.users).memo(`namespaces:${db.tables.groups.version}:${JSON.stringify(search ?? null)}`, () =>
            namespaceList(
              [
                ...db.tables.groups.all().map((group): NamespaceRow => ({ kind: 'group', group })),
                ...db.tables.users.all().map((u): NamespaceRow => ({ kind: 'user', user: u })),
              ],
              search,
            ),
          )
        : namespaceList(ownNamespaces(ctx, user, today), search)
      return paginated(ctx, rows, (row) => Namespace(row, ctx))
    },
  }),

  route('GET /namespaces/:id', {
    params: { id: p.string({ required: true }) },
    handler(ctx) {
      return ok(Namespace(findNamespace(ctx, ctx.params.id), ctx))
    },
  }),

  // gitlab: `Namespace.clean_path` suggests the path with the first free number appended.
  route('GET /namespaces/:namespace/exists', {
    params: { namespace: p.string({ required: true }), parent_id: p.integer() },
    handler(ctx) {
      const { namespace, parent_id } = ctx.params
      const exists = pathTaken(ctx, namespace, parent_id)
      const suggests: string[] = []
      if (exists) {
        let n = 1
        while (pathTaken(ctx, `${namespace}${n}`, parent_id)) n++
        suggests.push(`${namespace}${n}`)
      }
      return ok({ exists, suggests })
    },
  }),
]

/**
 * `find_namespace!(id)`: a numeric id (a group first, where a group and a user share it) or a full
 * path (a group's, else a username), which the caller may read (`read_namespace`: the user
 * themself for a personal namespace; a member of the group or of an ancestor for a group;
 * administrators always).
 * @throws ApiError 404 `{"message":"404 Namespace Not Found"}`.
 */
function findNamespace(ctx: Ctx<unknown>, id: string): NamespaceRow {
  const { db } = ctx
  const numeric = /^\d+$/.test(id)
  const group = numeric ? db.tables.groups.get(Number(id)) : db.findGroupByFullPath(id)
  const user = group ? undefined : numeric ? db.tables.users.get(Number(id)) : db.findUserByUsername(id)
  const me = ctx.currentUser!
  if (group && hasGroupAccess(db, me, group, AccessLevel.GUEST, ctx.today)) return { kind: 'group', group }
  if (user && (me.admin || me.id === user.id)) return { kind: 'user', user }
  throw notFound('Namespace')
}

/** Whether a namespace with this path (case-insensitive) exists under the parent (top level: groups without one and personal namespaces). */
function pathTaken(ctx: Ctx<unknown>, path: string, parentId: number | undefined): boolean {
  const lower = path.toLowerCase()
  const groups = ctx.db.tables.groups.where('parent_id', parentId ?? null)
  if (groups.some((g) => g.path.toLowerCase() === lower)) return true
  return parentId === undefined && ctx.db.findUserByUsername(path) !== undefined
}
