// The scale scenario (issue 13): a scenario object (not YAML text, so loading skips the YAML parser)
// generated deterministically from its size: by default 5,000 users, 200 groups, 2,000 projects,
// 100,000 issues (`generate: { issues }` per project), 10,000 labels, 1,000 runners with 50,000
// jobs, 20,000 to-dos. `scale` < 1 shrinks everything in proportion (the cost-growth figures load
// the same shape at 1k, 10k and 100k records). No randomness here: every value follows from the
// indexes; what the scenario leaves out comes from fakelab's seeded faker.

/**
 * @param {number} scale 1 for the full size.
 * @returns {{ scenario: object, sizes: Record<string, number> }}
 */
export function scaleScenario(scale = 1) {
  const n = (full) => Math.max(1, Math.round(full * scale))
  const USERS = n(5000), GROUPS = n(200), PROJECTS = n(2000), ISSUES = n(100_000), RUNNERS = n(1000), JOBS_PER_RUNNER = 50, TODOS = n(20_000)
  const GROUP_LABELS = 10, PROJECT_LABELS = Math.max(0, Math.round((n(10_000) - GROUPS * GROUP_LABELS) / PROJECTS))
  const issuesPerProject = Math.max(1, Math.round(ISSUES / PROJECTS))
  const todosPerProject = Math.max(1, Math.round(TODOS / PROJECTS))
  const user = (i) => `user${i}`
  // Every timestamp written out (from the index), so that loading seeds no faker for them.
  const at = (minutes) => new Date(Date.UTC(2020, 0, 1) + minutes * 60_000).toISOString()
  const stamps = (minutes) => ({ created_at: at(minutes), updated_at: at(minutes + 60) })
  const users = [
    { id: 1, username: 'root', name: 'Administrator', email: 'root@example.com', admin: true, created_at: at(0), tokens: [{ token: 'glpat-root-fakelab', name: 'default', scopes: ['api', 'sudo'], created_at: at(0) }] },
    ...Array.from({ length: USERS - 1 }, (_, k) => {
      const i = k + 2
      return { id: i, username: user(i), name: `User ${i}`, email: `user${i}@example.com`, created_at: at(i), last_sign_in_at: at(i + 1), current_sign_in_at: at(i + 2), last_activity_on: '2021-03-01', tokens: [{ token: `glpat-${user(i)}-fakelab`, name: 'default', scopes: ['api'], created_at: at(i) }] }
    }),
  ]
  const levels = ['guest', 'reporter', 'developer', 'maintainer', 'owner']
  const groups = Array.from({ length: GROUPS }, (_, g) => ({
    id: 10 + g,
    path: `group-${g}`,
    name: `Group ${g}`,
    visibility: g % 3 === 0 ? 'private' : 'public',
    created_at: at(10_000 + g),
    runners_token: `GR1348941scaleGroup${String(g).padStart(10, '0')}`,
    // 20 members per group, spread over the users.
    members: Array.from({ length: 20 }, (_, m) => ({ user: user(2 + ((g * 20 + m) % (USERS - 1))), access_level: levels[m % 5], created_at: at(20_000 + g) })),
    labels: Array.from({ length: GROUP_LABELS }, (_, l) => ({ name: `group-label-${l}`, color: '#428bca', ...stamps(20_000 + g) })),
    milestones: [{ title: `g${g}-v1`, ...stamps(20_000 + g) }, { title: `g${g}-v2`, ...stamps(20_001 + g) }],
  }))
  const projects = Array.from({ length: PROJECTS }, (_, p) => {
    const g = p % GROUPS
    const project = {
      id: 100_000 + p,
      path: `project-${p}`,
      namespace: `group-${g}`,
      name: `Project ${p}`,
      visibility: p % 4 === 0 ? 'private' : 'public',
      created_at: at(30_000 + p),
      runners_token: `GR1348941scaleProj${String(p).padStart(11, '0')}`,
      last_activity_at: at(40_000 + p),
      // 5 direct members per project (beside the group's).
      members: Array.from({ length: 5 }, (_, m) => ({ user: user(2 + ((p * 5 + m + 7) % (USERS - 1))), access_level: levels[m % 4], created_at: at(40_000 + p) })),
      labels: Array.from({ length: PROJECT_LABELS }, (_, l) => ({ name: `label-${l}`, color: '#d9534f', ...stamps(40_000 + p) })),
      milestones: [{ title: 'v1', ...stamps(40_000 + p) }, { title: 'v2', ...stamps(40_001 + p) }],
      pipelines: [{ id: 1_000_000 + p, ref: 'main', status: 'success', user: user(2 + (p % (USERS - 1))), ...stamps(50_000 + p) }],
      issues: [{ iid: 1, title: `Tracked issue of project ${p}`, author: user(2 + (p % (USERS - 1))), labels: ['label-0'], milestone: 'v1', ...stamps(50_000 + p) }],
      generate: { issues: Math.max(0, issuesPerProject - 1) },
      // The first of each project's to-dos is root's, so that the bench's admin has a long to-do list.
      todos: Array.from({ length: todosPerProject }, (_, t) => ({ user: t === 0 ? 'root' : user(2 + ((p * 20 + t) % (USERS - 1))), author: t === 0 ? user(2) : 'root', action: 'assigned', issue: 1, ...stamps(60_000 + p) })),
    }
    return project
  })
  const runners = Array.from({ length: RUNNERS }, (_, r) => {
    const p = r % PROJECTS
    const path = `group-${p % GROUPS}/project-${p}`
    return {
      id: 10 + r,
      description: `runner-${r}`,
      token: `fakelab-scale-runner-${r}`,
      tag_list: r % 2 ? ['docker'] : ['linux'],
      contacted_at: '2021-04-01T11:30:00.000Z',
      created_at: at(70_000 + r),
      ip_address: `10.1.${r >> 8}.${r & 255}`,
      revision: '7f8e9d0c',
      projects: [path],
      jobs: Array.from({ length: JOBS_PER_RUNNER }, (_, j) => ({
        project: path, pipeline: 1_000_000 + p, status: j % 5 === 0 ? 'failed' : 'success', name: `job-${j}`,
        created_at: at(80_000 + r + j), started_at: at(80_001 + r + j), finished_at: at(80_002 + r + j),
      })),
    }
  })
  const scenario = { version: 1, now: '2021-04-01T12:00:00.000Z', seed: 13, users, groups, projects, runners }
  const sizes = {
    users: USERS, groups: GROUPS, projects: PROJECTS, issues: PROJECTS * issuesPerProject,
    labels: GROUPS * GROUP_LABELS + PROJECTS * PROJECT_LABELS, runners: RUNNERS, jobs: RUNNERS * JOBS_PER_RUNNER, todos: PROJECTS * todosPerProject,
    memberships: GROUPS * 20 + PROJECTS * 5,
  }
  return { scenario, sizes }
}
