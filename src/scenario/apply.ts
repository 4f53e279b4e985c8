/**
 * Scenario → store records. Flattens the nested, name-based {@link Scenario} into the tables of
 * `src/db/schema.ts`, turning usernames, full paths and titles into ids, and filling every field the
 * scenario leaves out with a dedicated, seeded faker: the same scenario and seed give the same
 * records, byte for byte, on every run.
 *
 * Source: STYLE.md §7 (ids, iids), §10 (faker fills only what the scenario leaves out).
 * @module
 */
import { Faker, base, en } from '@faker-js/faker'
import { AccessLevel } from '../core/access.js'
import type { Db } from '../db/db.js'
import type { Row } from '../db/collection.js'
import type {
  FreezePeriodRecord,
  GroupRecord,
  IssueRecord,
  LabelRecord,
  MergeRequestRecord,
  MilestoneRecord,
  OauthAccessTokenRecord,
  PersonalAccessTokenRecord,
  ProjectRecord,
  TableName,
  Tables,
  UserRecord,
} from '../db/schema.js'
import type {
  Scenario,
  ScenarioGroup,
  ScenarioIssue,
  ScenarioLabel,
  ScenarioMember,
  ScenarioMergeRequest,
  ScenarioMilestone,
  ScenarioProject,
  ScenarioUser,
} from './schema.js'

/** Options of {@link applyScenario}. */
export interface ApplyScenarioOptions {
  /** Faker seed (callers usually pass `scenario.seed`, which defaults to 1). */
  seed: number
  /**
   * The instant generated timestamps lead up to (`created_at` in the past of it, and so on);
   * usually the scenario's `now:` or the simulator's reference date. Explicit values are kept.
   */
  referenceDate: Date
}

/**
 * Inserts every record of `scenario` into `db.tables.*`, inside one `db.transaction`.
 *
 * - Ids: explicit ids are kept; the others continue each table's sequence past the highest id in
 *   the scenario (and in the table), and rows are inserted in id order.
 * - iids: explicit iids are reserved first (`db.bumpIid`), then the others are allocated in file
 *   order per project or group (`db.nextIid`).
 * - Generated values: one `Faker` instance, reseeded per record from `seed` and the record's
 *   natural key (`user:root`, `project:acme/website`, …), so adding or reordering records does not
 *   change the values generated for the others. Timestamps lie before `referenceDate` and are
 *   `toISOString()` strings; dates are `YYYY-MM-DD`.
 * - Derived rows: a personal project's owner becomes a project member at 40 (as GitLab 13.x reports
 *   it), label `priority` becomes a `label_priorities` row, label `subscribers` become
 *   `subscriptions` rows. `creator_id` is the namespace owner for personal projects, else the first
 *   owner/maintainer member found walking the namespace group chain upwards, else user 1 (or the
 *   lowest user id when there is no user 1).
 *
 * Meant for an empty store: the scenario is trusted to have passed `parseScenario` or
 * `validateScenarioObject`.
 * @throws DuplicateKeyError (from `src/db/collection.ts`) when an explicit id is already taken in
 *   `db`; the transaction is rolled back.
 * @throws Error naming the reference when the scenario refers to a user, group, label or milestone
 *   it does not define (only possible for a hand-built, unvalidated scenario); rolled back too.
 */
export function applyScenario(db: Db, scenario: Scenario, options: ApplyScenarioOptions): void {
  db.transaction(() => new ScenarioLoader(db, scenario, options).load())
}

// ---- helpers ----------------------------------------------------------------------------------

/** 32-bit FNV-1a: a stable number per natural key, mixed into the faker seed. */
function hash(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}

/** `good-first_issue` → `Good First Issue` (GitLab's default name from a path). */
function titleize(path: string): string {
  return path
    .split(/[-_.\s]+/)
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ')
}

function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10)
}

/** The next ids for entries without one: past every explicit id and every id already in the table. */
function assignIds(table: { peekNextId(): number }, entries: readonly { id?: number | undefined }[]): number[] {
  let next = Math.max(table.peekNextId() - 1, ...entries.map((e) => e.id ?? 0))
  return entries.map((e) => e.id ?? ++next)
}

interface SourceRef {
  type: 'group' | 'project'
  id: number
  key: string
  createdAt: string
}

/** Labels and milestones of one group or project, by title. */
interface Scope {
  labels: Map<string, number>
  milestones: Map<string, number>
}

// ---- the loader -------------------------------------------------------------------------------

class ScenarioLoader {
  private readonly faker = new Faker({ locale: [en, base] })
  private readonly users = new Map<string, UserRecord>() // lower-case username
  private readonly groupIds = new Map<string, number>() // lower-case full path
  private readonly groupRecords = new Map<number, GroupRecord>()
  private readonly scopes = new Map<string, Scope>() // `group:<path>` / `project:<path>`
  private readonly rows = new Map<TableName, Row[]>()
  private readonly ref: Date
  private readonly db: Db
  private readonly scenario: Scenario
  private readonly seed: number

  constructor(db: Db, scenario: Scenario, options: ApplyScenarioOptions) {
    this.db = db
    this.scenario = scenario
    this.seed = options.seed >>> 0
    this.ref = options.referenceDate
  }

  load(): void {
    const { users, groups, projects } = this.scenario
    this.loadUsers(users)
    const groupPaths = this.loadGroups(groups)
    this.loadProjects(projects)
    this.flush(['users', 'personal_access_tokens', 'oauth_access_tokens', 'groups', 'projects'])
    // Rows referring to the above, with ids of their own.
    groups.forEach((group, i) => this.loadGroupChildren(group, groupPaths[i]!))
    this.projectChildren.forEach((load) => load())
    this.flush(['labels', 'milestones', 'freeze_periods', 'issues', 'merge_requests'])
  }

  /** Reseeds faker for one record and returns it. */
  private fake(key: string): Faker {
    this.faker.seed([this.seed, hash(key)])
    return this.faker
  }

  private past(f: Faker, from?: string): string {
    if (from === undefined) return f.date.past({ years: 2, refDate: this.ref }).toISOString()
    return this.between(f, from)
  }

  /** A generated instant in `[from, referenceDate]` (or `from` itself when it is not earlier). */
  private between(f: Faker, from: string): string {
    const start = new Date(from)
    if (start.getTime() >= this.ref.getTime()) return start.toISOString()
    return f.date.between({ from: start, to: this.ref }).toISOString()
  }

  private runnersToken(f: Faker): string {
    return `GR1348941${f.string.alphanumeric(20)}`
  }

  private stage<K extends TableName>(table: K, row: Tables[K]): void {
    const rows = this.rows.get(table)
    if (rows) rows.push(row)
    else this.rows.set(table, [row])
  }

  /** Inserts the staged rows of each table in id order. */
  private flush(tables: TableName[]): void {
    for (const table of tables) {
      const rows = (this.rows.get(table) ?? []).sort((a, b) => a.id - b.id)
      const collection = this.db.tables[table] as unknown as { insert(row: Row): Row }
      for (const row of rows) collection.insert(row)
      this.rows.delete(table)
    }
  }

  private userId(username: string): number {
    const user = this.users.get(username.toLowerCase())
    if (!user) throw new Error(`scenario: unknown user "${username}"`)
    return user.id
  }

  private scope(key: string): Scope {
    let scope = this.scopes.get(key)
    if (!scope) this.scopes.set(key, (scope = { labels: new Map(), milestones: new Map() }))
    return scope
  }

  // ---- users ----

  private loadUsers(users: ScenarioUser[]): void {
    const userIds = assignIds(this.db.tables.users, users)
    const patIds = assignIds(this.db.tables.personal_access_tokens, users.flatMap((u) => u.tokens))
    const oauthIds = assignIds(this.db.tables.oauth_access_tokens, users.flatMap((u) => u.oauth_tokens))
    users.forEach((u, i) => {
      const f = this.fake(`user:${u.username.toLowerCase()}`)
      const created_at = u.created_at ?? this.past(f)
      const last_sign_in_at = u.last_sign_in_at !== undefined ? u.last_sign_in_at : this.between(f, created_at)
      const current_sign_in_at =
        u.current_sign_in_at !== undefined ? u.current_sign_in_at : this.between(f, last_sign_in_at ?? created_at)
      const last_activity_on =
        u.last_activity_on !== undefined ? u.last_activity_on : isoDay(new Date(this.between(f, current_sign_in_at ?? created_at)))
      const record: UserRecord = {
        id: userIds[i]!,
        username: u.username,
        name: u.name ?? f.person.fullName(),
        email: u.email ?? `${u.username.toLowerCase()}@example.com`,
        state: u.state,
        admin: u.admin,
        avatar_url: u.avatar_url,
        bio: u.bio,
        location: u.location,
        public_email: u.public_email,
        skype: u.skype,
        linkedin: u.linkedin,
        twitter: u.twitter,
        website_url: u.website_url,
        organization: u.organization,
        job_title: u.job_title,
        user_type: u.user_type,
        created_at,
        last_sign_in_at,
        current_sign_in_at,
        last_activity_on,
        can_create_group: u.can_create_group,
        projects_limit: u.projects_limit,
        private_profile: u.private_profile,
      }
      this.users.set(u.username.toLowerCase(), record)
      this.stage('users', record)
    })
    let pat = 0
    let oauth = 0
    for (const u of users) {
      const user = this.users.get(u.username.toLowerCase())!
      for (const t of u.tokens) {
        const f = this.fake(`personal_access_token:${t.token}`)
        const record: PersonalAccessTokenRecord = {
          id: patIds[pat++]!,
          user_id: user.id,
          name: t.name ?? `${f.hacker.adjective()} ${f.hacker.noun()}`,
          token: t.token,
          scopes: [...t.scopes],
          revoked: t.revoked,
          expires_at: t.expires_at ?? null,
          impersonation: t.impersonation,
          created_at: t.created_at ?? this.between(f, user.created_at),
          last_used_at: t.last_used_at ?? null,
        }
        this.stage('personal_access_tokens', record)
      }
      for (const t of u.oauth_tokens) {
        const f = this.fake(`oauth_access_token:${t.token}`)
        const record: OauthAccessTokenRecord = {
          id: oauthIds[oauth++]!,
          user_id: user.id,
          token: t.token,
          scopes: [...t.scopes],
          revoked: t.revoked,
          expires_at: t.expires_at ?? null,
          created_at: t.created_at ?? this.between(f, user.created_at),
        }
        this.stage('oauth_access_tokens', record)
      }
    }
  }

  // ---- groups ----

  /** Stages group records; returns each group's full path (same order). */
  private loadGroups(groups: ScenarioGroup[]): string[] {
    const ids = assignIds(this.db.tables.groups, groups)
    const paths = groups.map((g) => (g.parent ? `${g.parent}/${g.path}` : g.path))
    paths.forEach((path, i) => this.groupIds.set(path.toLowerCase(), ids[i]!))
    groups.forEach((g, i) => {
      const f = this.fake(`group:${paths[i]!.toLowerCase()}`)
      const parentId = g.parent ? this.groupIds.get(g.parent.toLowerCase()) : null
      if (parentId === undefined) throw new Error(`scenario: unknown parent group "${g.parent}"`)
      const record: GroupRecord = {
        id: ids[i]!,
        name: g.name ?? f.company.name(),
        path: g.path,
        description: g.description,
        visibility: g.visibility,
        parent_id: parentId,
        created_at: g.created_at ?? this.past(f),
        request_access_enabled: g.request_access_enabled,
        lfs_enabled: g.lfs_enabled,
        runners_token: g.runners_token ?? this.runnersToken(f),
      }
      this.groupRecords.set(record.id, record)
      this.stage('groups', record)
    })
    return paths
  }

  /** Group ids of a namespace path and its ancestors, nearest first ([] for a user namespace). */
  private groupChain(fullPath: string): number[] {
    const segments = fullPath.toLowerCase().split('/')
    const chain: number[] = []
    for (let n = segments.length; n > 0; n--) {
      const id = this.groupIds.get(segments.slice(0, n).join('/'))
      if (id !== undefined) chain.push(id)
    }
    return chain
  }

  private loadGroupChildren(group: ScenarioGroup, fullPath: string): void {
    const id = this.groupIds.get(fullPath.toLowerCase())!
    const source: SourceRef = { type: 'group', id, key: `group:${fullPath.toLowerCase()}`, createdAt: this.groupRecords.get(id)!.created_at }
    this.loadMembers(source, group.members)
    this.loadLabels(source, group.labels)
    this.loadMilestones(source, group.milestones)
  }

  // ---- projects ----

  private readonly projectChildren: (() => void)[] = []

  private loadProjects(projects: ScenarioProject[]): void {
    const ids = assignIds(this.db.tables.projects, projects)
    projects.forEach((p, i) => {
      const fullPath = `${p.namespace}/${p.path}`
      const f = this.fake(`project:${fullPath.toLowerCase()}`)
      const groupId = this.groupIds.get(p.namespace.toLowerCase())
      const owner = groupId === undefined ? this.users.get(p.namespace.toLowerCase()) : undefined
      if (groupId === undefined && !owner) throw new Error(`scenario: unknown namespace "${p.namespace}"`)
      const namespaceCreated = owner ? owner.created_at : this.groupRecords.get(groupId!)!.created_at
      const created_at = p.created_at ?? this.between(f, namespaceCreated)
      const record: ProjectRecord = {
        id: ids[i]!,
        name: p.name ?? titleize(p.path),
        path: p.path,
        description: p.description,
        visibility: p.visibility,
        namespace_type: owner ? 'user' : 'group',
        namespace_id: owner ? owner.id : groupId!,
        creator_id: owner ? owner.id : this.groupCreator(p.namespace),
        created_at,
        last_activity_at: p.last_activity_at ?? this.between(f, created_at),
        default_branch: p.default_branch,
        archived: p.archived,
        repository_storage: p.repository_storage,
        runners_token: p.runners_token ?? this.runnersToken(f),
      }
      this.stage('projects', record)
      this.projectChildren.push(() => this.loadProjectChildren(p, record, owner))
    })
  }

  /** The first owner or maintainer walking up the group chain, else user 1 (or the lowest id). */
  private groupCreator(namespace: string): number {
    const byPath = new Map(this.scenario.groups.map((g) => [(g.parent ? `${g.parent}/${g.path}` : g.path).toLowerCase(), g]))
    const segments = namespace.toLowerCase().split('/')
    for (let n = segments.length; n > 0; n--) {
      const group = byPath.get(segments.slice(0, n).join('/'))
      const member = group?.members.find((m) => m.access_level >= AccessLevel.MAINTAINER)
      if (member) return this.userId(member.user)
    }
    const ids = [...this.users.values()].map((u) => u.id)
    return ids.includes(1) || ids.length === 0 ? 1 : Math.min(...ids)
  }

  private loadProjectChildren(p: ScenarioProject, project: ProjectRecord, owner: UserRecord | undefined): void {
    const fullPath = `${p.namespace}/${p.path}`.toLowerCase()
    const source: SourceRef = { type: 'project', id: project.id, key: `project:${fullPath}`, createdAt: project.created_at }
    const members = [...p.members]
    if (owner && !members.some((m) => m.user.toLowerCase() === owner.username.toLowerCase())) {
      // gitlab: a personal project's owner is a member at MAINTAINER (40) in 13.x, not OWNER
      members.unshift({ user: owner.username, access_level: AccessLevel.MAINTAINER, expires_at: null, created_at: project.created_at })
    }
    this.loadMembers(source, members)
    const labelIds = this.loadLabels(source, p.labels)
    p.labels.forEach((label, i) => {
      if (label.priority === undefined) return
      this.db.tables.label_priorities.insert({ project_id: project.id, label_id: labelIds[i]!, priority: label.priority })
    })
    this.loadMilestones(source, p.milestones)
    this.loadFreezePeriods(source, p)

    // Labels and milestones visible to the project: its own, then its groups', nearest first.
    const chain = project.namespace_type === 'group' ? this.groupChain(`${p.namespace}`) : []
    const scopes = [this.scope(source.key), ...chain.map((id) => this.scope(`group:${this.groupPath(id)}`))]
    const labelId = (title: string): number => {
      for (const scope of scopes) {
        const id = scope.labels.get(title.trim())
        if (id !== undefined) return id
      }
      throw new Error(`scenario: unknown label "${title}" in project "${fullPath}"`)
    }
    const milestoneId = (title: string | null | undefined): number | null => {
      if (title === null || title === undefined) return null
      for (const scope of scopes) {
        const id = scope.milestones.get(title)
        if (id !== undefined) return id
      }
      throw new Error(`scenario: unknown milestone "${title}" in project "${fullPath}"`)
    }
    this.loadIssues(source, project, p.issues, labelId, milestoneId)
    this.loadMergeRequests(source, project, p, labelId, milestoneId)
  }

  private groupPath(id: number): string {
    for (const [path, groupId] of this.groupIds) if (groupId === id) return path
    return ''
  }

  // ---- children shared by groups and projects ----

  private loadMembers(source: SourceRef, members: ScenarioMember[]): void {
    for (const m of members) {
      const userId = this.userId(m.user)
      const f = this.fake(`member:${source.key}:${m.user.toLowerCase()}`)
      this.db.tables.members.insert({
        source_type: source.type,
        source_id: source.id,
        user_id: userId,
        access_level: m.access_level,
        expires_at: m.expires_at ?? null,
        created_at: m.created_at ?? this.between(f, source.createdAt),
        created_by_id: null,
        override: false,
      })
    }
  }

  /** Stages labels and their subscriptions; returns the label ids (same order). */
  private loadLabels(source: SourceRef, labels: ScenarioLabel[]): number[] {
    const ids = this.reserveIds('labels', labels)
    const scope = this.scope(source.key)
    labels.forEach((l, i) => {
      const f = this.fake(`label:${source.key}:${l.name}`)
      const created_at = l.created_at ?? this.between(f, source.createdAt)
      const record: LabelRecord = {
        id: ids[i]!,
        title: l.name,
        color: l.color,
        description: l.description,
        project_id: source.type === 'project' ? source.id : null,
        group_id: source.type === 'group' ? source.id : null,
        created_at,
        updated_at: l.updated_at ?? this.between(f, created_at),
      }
      scope.labels.set(l.name, record.id)
      this.stage('labels', record)
      for (const subscriber of l.subscribers) {
        this.db.tables.subscriptions.insert({
          user_id: this.userId(subscriber),
          subscribable_type: 'Label',
          subscribable_id: record.id,
          project_id: source.type === 'project' ? source.id : null,
          subscribed: true,
        })
      }
    })
    return ids
  }

  private loadMilestones(source: SourceRef, milestones: ScenarioMilestone[]): void {
    const ids = this.reserveIds('milestones', milestones)
    const iids = this.iids('milestones', source, milestones)
    const scope = this.scope(source.key)
    milestones.forEach((m, i) => {
      const f = this.fake(`milestone:${source.key}:${m.title}`)
      const created_at = m.created_at ?? this.between(f, source.createdAt)
      const record: MilestoneRecord = {
        id: ids[i]!,
        iid: iids[i]!,
        title: m.title,
        description: m.description,
        state: m.state,
        due_date: m.due_date ?? null,
        start_date: m.start_date ?? null,
        group_id: source.type === 'group' ? source.id : null,
        project_id: source.type === 'project' ? source.id : null,
        created_at,
        updated_at: m.updated_at ?? this.between(f, created_at),
      }
      scope.milestones.set(m.title, record.id)
      this.stage('milestones', record)
    })
  }

  private loadFreezePeriods(source: SourceRef, p: ScenarioProject): void {
    const ids = this.reserveIds('freeze_periods', p.freeze_periods)
    p.freeze_periods.forEach((fp, i) => {
      const f = this.fake(`freeze_period:${source.key}:${i}`)
      const created_at = fp.created_at ?? this.between(f, source.createdAt)
      const record: FreezePeriodRecord = {
        id: ids[i]!,
        project_id: source.id,
        freeze_start: fp.freeze_start,
        freeze_end: fp.freeze_end,
        cron_timezone: fp.cron_timezone,
        created_at,
        updated_at: fp.updated_at ?? this.between(f, created_at),
      }
      this.stage('freeze_periods', record)
    })
  }

  /** Open/closed timestamps of an issue or merge request, consistent with each other. */
  private lifecycle(
    f: Faker,
    item: { created_at?: string | undefined; updated_at?: string | undefined; closed_at?: string | null | undefined },
    finished: boolean,
    finishedAt: string | null | undefined,
    projectCreated: string,
  ): { created_at: string; updated_at: string; finished_at: string | null } {
    const created_at = item.created_at ?? this.between(f, projectCreated)
    const updated_at = item.updated_at ?? (finished && finishedAt ? finishedAt : this.between(f, created_at))
    const finished_at = finishedAt !== undefined ? finishedAt : finished ? updated_at : null
    return { created_at, updated_at, finished_at }
  }

  private loadIssues(
    source: SourceRef,
    project: ProjectRecord,
    issues: ScenarioIssue[],
    labelId: (title: string) => number,
    milestoneId: (title: string | null | undefined) => number | null,
  ): void {
    const ids = this.reserveIds('issues', issues)
    const iids = this.iids('issues', source, issues)
    issues.forEach((it, i) => {
      const f = this.fake(`issue:${source.key}:${i}`)
      const closed = it.state === 'closed'
      const times = this.lifecycle(f, it, closed, it.closed_at, project.created_at)
      const author_id = it.author !== undefined ? this.userId(it.author) : project.creator_id
      const record: IssueRecord = {
        id: ids[i]!,
        iid: iids[i]!,
        project_id: project.id,
        title: it.title ?? f.hacker.phrase().replace(/\.$/, ''),
        description: it.description ?? f.lorem.paragraph(),
        state: it.state,
        author_id,
        assignee_ids: it.assignees.map((u) => this.userId(u)),
        label_ids: it.labels.map(labelId),
        milestone_id: milestoneId(it.milestone),
        confidential: it.confidential,
        discussion_locked: it.discussion_locked,
        issue_type: it.issue_type,
        due_date: it.due_date ?? null,
        created_at: times.created_at,
        updated_at: times.updated_at,
        closed_at: times.finished_at,
        closed_by_id: it.closed_by !== undefined ? this.userId(it.closed_by) : closed ? author_id : null,
        moved_to_id: null,
        upvotes: it.upvotes,
        downvotes: it.downvotes,
        user_notes_count: it.user_notes_count,
        relative_position: null,
        time_estimate: it.time_estimate,
        total_time_spent: it.total_time_spent,
      }
      this.stage('issues', record)
    })
  }

  private loadMergeRequests(
    source: SourceRef,
    project: ProjectRecord,
    p: ScenarioProject,
    labelId: (title: string) => number,
    milestoneId: (title: string | null | undefined) => number | null,
  ): void {
    const mrs: ScenarioMergeRequest[] = p.merge_requests
    const ids = this.reserveIds('merge_requests', mrs)
    const iids = this.iids('merge_requests', source, mrs)
    mrs.forEach((mr, i) => {
      const f = this.fake(`merge_request:${source.key}:${i}`)
      const merged = mr.state === 'merged'
      const closed = mr.state === 'closed'
      const times = this.lifecycle(f, mr, merged || closed, merged ? mr.merged_at : mr.closed_at, project.created_at)
      const author_id = mr.author !== undefined ? this.userId(mr.author) : project.creator_id
      const record: MergeRequestRecord = {
        id: ids[i]!,
        iid: iids[i]!,
        project_id: project.id,
        source_project_id: project.id,
        title: mr.title ?? f.git.commitMessage(),
        description: mr.description ?? f.lorem.paragraph(),
        state: mr.state,
        author_id,
        assignee_ids: mr.assignees.map((u) => this.userId(u)),
        label_ids: mr.labels.map(labelId),
        milestone_id: milestoneId(mr.milestone),
        source_branch: mr.source_branch ?? f.git.branch(),
        target_branch: mr.target_branch ?? project.default_branch,
        draft: mr.draft,
        sha: mr.sha ?? f.git.commitSha(),
        merge_status: mr.merge_status,
        created_at: times.created_at,
        updated_at: times.updated_at,
        merged_at: merged ? times.finished_at : (mr.merged_at ?? null),
        merged_by_id: mr.merged_by !== undefined ? this.userId(mr.merged_by) : merged ? author_id : null,
        closed_at: closed ? times.finished_at : (mr.closed_at ?? null),
        closed_by_id: mr.closed_by !== undefined ? this.userId(mr.closed_by) : closed ? author_id : null,
        upvotes: mr.upvotes,
        downvotes: mr.downvotes,
        user_notes_count: mr.user_notes_count,
      }
      this.stage('merge_requests', record)
    })
  }

  // ---- ids and iids ----

  /**
   * Ids of a table whose entries are spread over many parents: computed once, over every entry of
   * the scenario, so auto ids start past the highest explicit id wherever it is written.
   */
  private readonly pending = new Map<TableName, { ids: Map<object, number> }>()

  private reserveIds(table: 'labels' | 'milestones' | 'freeze_periods' | 'issues' | 'merge_requests', entries: object[]): number[] {
    let state = this.pending.get(table)
    if (!state) {
      const all = this.allEntries(table)
      const ids = assignIds(this.db.tables[table], all)
      state = { ids: new Map(all.map((entry, i) => [entry, ids[i]!])) }
      this.pending.set(table, state)
    }
    return entries.map((entry) => state.ids.get(entry)!)
  }

  /** Every entry of a nested table, in load order (groups first, then projects). */
  private allEntries(table: 'labels' | 'milestones' | 'freeze_periods' | 'issues' | 'merge_requests'): { id?: number | undefined }[] {
    const { groups, projects } = this.scenario
    switch (table) {
      case 'labels':
        return [...groups.flatMap((g) => g.labels), ...projects.flatMap((p) => p.labels)]
      case 'milestones':
        return [...groups.flatMap((g) => g.milestones), ...projects.flatMap((p) => p.milestones)]
      case 'freeze_periods':
        return projects.flatMap((p) => p.freeze_periods)
      case 'issues':
        return projects.flatMap((p) => p.issues)
      case 'merge_requests':
        return projects.flatMap((p) => p.merge_requests)
    }
  }

  /** iids for one parent: explicit ones reserved first (`bumpIid`), then the rest allocated in order. */
  private iids(usage: 'issues' | 'merge_requests' | 'milestones', source: SourceRef, entries: { iid?: number | undefined }[]): number[] {
    for (const e of entries) if (e.iid !== undefined) this.db.bumpIid(usage, source.type, source.id, e.iid)
    return entries.map((e) => e.iid ?? this.db.nextIid(usage, source.type, source.id))
  }
}
