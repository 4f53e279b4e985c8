/**
 * fakelab's share of GitLab 13.12 CE's REST routes: the route list read from GitLab's lib/api
 * (`gitlab-13.12-routes.json`, made by scripts/gitlab-routes.mjs from
 * data/gitlab-13.12-grape-excerpts.rb.txt) against the routes fakelab serves. One table feeds
 * docs/coverage.md (its generated part), `fakelab routes` and `GET /-/fakelab/routes`.
 * Browser-safe. Source: issue 40 item 1.
 * @module
 */
import gitlab from './gitlab-13.12-routes.json' with { type: 'json' }

/** One route of the table. */
export interface CoverageRoute {
  /** Upper-case method. */
  method: string
  /** GitLab's path template below `/api/v4` with GitLab's `:param` names (fakelab's own for routes GitLab CE lacks). */
  path: string
  /** The GitLab file that declares it (`lib/api/labels.rb`), or where fakelab says it comes from. */
  file: string
  /** `free`: every CE route; `paid`: a higher-tier (EE) route fakelab serves. */
  tier: 'free' | 'paid'
  /** Whether fakelab answers it. */
  simulated: boolean
  /** Whether GitLab 13.12 CE's lib/api has it. */
  inGitlab: boolean
}

/** The routes of one area: a GitLab file, or fakelab's routes that CE's lib/api lacks. */
export interface CoverageArea {
  area: string
  /** Routes of the area in GitLab CE. */
  gitlab: number
  /** Of those (and of the area's routes outside CE), the ones fakelab answers. */
  simulated: number
  routes: CoverageRoute[]
}

/** The whole table. */
export interface RouteTable {
  gitlab: { version: string; repository: string; source: string; extractor: string; note: string }
  totals: { gitlab: number; simulated: number; fakelabOnly: number }
  areas: CoverageArea[]
  /** Files lib/api/api.rb mounts whose routes were not read: their routes are missing from `areas`. */
  notRead: string[]
  /** Routes a later text of a file has, left out because it dates them after 13.12. */
  after: { method: string; path: string; file: string; why: string }[]
}

/** The area name of fakelab routes that GitLab 13.12 CE's lib/api lacks. */
export const OUTSIDE_CE = 'outside GitLab CE (EE, or after 13.12)'

/**
 * Higher-tier routes fakelab serves, with the EE file its areas cite for them (GitLab CE does not
 * ship ee/, so they are not in the CE list). Source: the `gitlab:` citations of
 * src/resources/issues, members, milestones and repository-storage-moves.
 */
const PAID: readonly { pattern: RegExp; file: string }[] = [
  { pattern: /^\w+ \/projects\/:\w+\/issues\/:\w+\/metric_images/, file: 'ee/lib/ee/api/issues.rb' },
  { pattern: /^\w+ \/groups\/:\w+\/members\/:\w+\/override$/, file: 'ee/lib/ee/api/members.rb' },
  { pattern: /^\w+ \/groups\/:\w+\/billable_members/, file: 'ee/lib/ee/api/members.rb' },
  { pattern: /^\w+ \/groups\/:\w+\/milestones\/:\w+\/burndown_events$/, file: 'ee/lib/ee/api/group_milestones.rb' },
  { pattern: /^\w+ \/(groups\/:\w+\/repository_storage_moves|group_repository_storage_moves)/, file: 'ee/lib/api/group_repository_storage_moves.rb' },
]

/**
 * A route key with its parameter names erased: `GET /projects/:/labels/:`. A glob segment inside
 * the path (`*package_version` in generic_packages.rb) erases to `:` like a parameter, so a route
 * that reads it as one segment still matches; a trailing glob (`*artifact_path`) stays `*`.
 */
function shape(key: string): string {
  return key.replace(/:[A-Za-z_]+/g, ':').replace(/\*[A-Za-z_]+(?=\/)/g, ':').replace(/\*[A-Za-z_]+/g, '*')
}

/**
 * The paths a Grape path template with optional groups stands for: `/groups/:id/(-/)search` is
 * `/groups/:id/search` and `/groups/:id/-/search`; `(ref/:ref/)trigger/pipeline` likewise. Each
 * group is taken or left (groups do not nest in lib/api); doubled slashes collapse and a trailing
 * slash goes, as Rack's routing reads them. Source: Mustermann's Grape pattern (`(…)` optional).
 */
export function optionalVariants(path: string): string[] {
  const open = path.indexOf('(')
  if (open < 0) return [path.replace(/\/{2,}/g, '/').replace(/(.)\/$/, '$1')]
  const close = path.indexOf(')', open)
  if (close < 0) return [path]
  const before = path.slice(0, open)
  const after = path.slice(close + 1)
  return [...new Set([...optionalVariants(before + path.slice(open + 1, close) + after), ...optionalVariants(before + after)])]
}

/**
 * Builds the table from fakelab's route keys (`GET /projects/:id/labels`). A fakelab route
 * matches a GitLab route of the same method and path shape, parameter names aside; a last segment
 * with a format suffix (`archive.zip`) matches the route without it, as Grape's `(.:format)` does.
 */
export function routeTable(fakelabKeys: readonly string[]): RouteTable {
  /** Each path shape a GitLab route stands for, with the route and the shapes fakelab serves of it. */
  const byShape = new Map<string, { route: CoverageRoute; shapes: Set<string>; served: Set<string> }>()
  const areas = new Map<string, CoverageArea>()
  for (const r of gitlab.routes) {
    const route: CoverageRoute = { method: r.method, path: r.path, file: r.file, tier: r.tier === 'paid' ? 'paid' : 'free', simulated: false, inGitlab: true }
    const shapes = new Set(optionalVariants(r.path).map((path) => shape(`${r.method} ${path}`)))
    const entry = { route, shapes, served: new Set<string>() }
    for (const s of shapes) byShape.set(s, entry)
    let area = areas.get(r.file)
    if (!area) areas.set(r.file, (area = { area: r.file, gitlab: 0, simulated: 0, routes: [] }))
    area.gitlab++
    area.routes.push(route)
  }
  const outside: CoverageArea = { area: OUTSIDE_CE, gitlab: 0, simulated: 0, routes: [] }
  for (const key of [...new Set(fakelabKeys)].sort()) {
    const exact = shape(key)
    const bare = shape(key.replace(/\.[\w.]+$/, ''))
    const entry = byShape.get(exact) ?? byShape.get(bare)
    if (entry) {
      entry.served.add(byShape.has(exact) ? exact : bare)
      // A route with optional segments counts once fakelab serves every path it stands for.
      if (!entry.route.simulated && entry.served.size === entry.shapes.size) {
        entry.route.simulated = true
        areas.get(entry.route.file)!.simulated++
      }
      continue
    }
    const space = key.indexOf(' ')
    const paid = PAID.find((p) => p.pattern.test(key))
    outside.routes.push({
      method: key.slice(0, space), path: key.slice(space + 1), file: paid?.file ?? 'fakelab',
      tier: paid ? 'paid' : 'free', simulated: true, inGitlab: false,
    })
    outside.simulated++
  }
  const list = [...areas.values()].sort((a, b) => a.area.localeCompare(b.area))
  if (outside.routes.length > 0) list.push(outside)
  const { version, repository, source, extractor, note } = gitlab.gitlab
  return {
    gitlab: { version, repository, source, extractor, note },
    totals: {
      gitlab: gitlab.routes.length,
      simulated: list.reduce((n, a) => n + (a === outside ? 0 : a.simulated), 0),
      fakelabOnly: outside.routes.length,
    },
    areas: list,
    notRead: [...gitlab.notRead],
    after: gitlab.after.map((r) => ({ method: r.method, path: r.path, file: r.file, why: r.why })),
  }
}

const percent = (part: number, whole: number): string => (whole === 0 ? '–' : `${Math.round((part / whole) * 100)}%`)

/** The generated part of docs/coverage.md (Markdown, ending in a newline). */
export function coverageMarkdown(table: RouteTable): string {
  const out: string[] = []
  const { totals } = table
  out.push(
    `fakelab answers **${totals.simulated} of the ${totals.gitlab} routes** read from GitLab ${table.gitlab.version}'s`,
    `\`lib/api\` (${percent(totals.simulated, totals.gitlab)}), and ${totals.fakelabOnly} routes GitLab CE's \`lib/api\` lacks`,
    '(higher-tier routes, and a few from later versions). The GitLab list is data:',
    `\`${table.gitlab.source}\` holds the route-bearing lines of each Grape file with the version read,`,
    `\`${table.gitlab.extractor}\` turns them into \`src/reference/gitlab-13.12-routes.json\`. ${table.gitlab.note}`,
    '',
    `Not read yet, so missing below: ${table.notRead.length} of the files \`lib/api/api.rb\` mounts (listed at the end).`,
    'A tick marks a route fakelab answers; a blank, one it answers with GitLab\'s catch-all 404.',
    '',
    '| area (GitLab file) | simulated | in GitLab | share |',
    '|---|---:|---:|---:|',
  )
  for (const area of table.areas) {
    if (area.area === OUTSIDE_CE) continue
    out.push(`| [\`${area.area}\`](#${anchor(area.area)}) | ${area.simulated} | ${area.gitlab} | ${percent(area.simulated, area.gitlab)} |`)
  }
  out.push(`| **total** | **${totals.simulated}** | **${totals.gitlab}** | **${percent(totals.simulated, totals.gitlab)}** |`, '')
  for (const area of table.areas) {
    out.push(`### ${area.area}`, '')
    if (area.area === OUTSIDE_CE) {
      out.push('Routes fakelab answers that GitLab 13.12 CE\'s `lib/api` lacks: higher-tier (EE) routes, marked paid with the', 'EE file they come from, and routes of later versions.', '', '| tier | route | source |', '|---|---|---|')
      for (const r of area.routes) out.push(`| ${r.tier} | \`${r.method} ${r.path}\` | ${r.file === 'fakelab' ? 'not in 13.12 CE' : `\`${r.file}\``} |`)
    } else {
      out.push(`${area.simulated} of ${area.gitlab} simulated.`, '', '| | route |', '|---|---|')
      for (const r of area.routes) out.push(`| ${r.simulated ? '✓' : ''} | \`${r.method} ${r.path}\` |`)
    }
    out.push('')
  }
  out.push('### Mounted by lib/api/api.rb, not read', '', table.notRead.map((f) => `\`${f}\``).join(', '), '')
  out.push('### Left out as after 13.12', '', 'Routes a later text of a file has that the text (or our note) dates after 13.12.', '', '| route | file | why |', '|---|---|---|')
  for (const r of table.after) out.push(`| \`${r.method} ${r.path}\` | \`${r.file}\` | ${r.why.replace(/\|/g, '\\|')} |`)
  return `${out.join('\n')}\n`
}

/** GitHub's heading anchor for a heading text. */
function anchor(text: string): string {
  return text.toLowerCase().replace(/[^\w\- ]/g, '').replace(/ /g, '-')
}

/** The plain-text table `fakelab routes` prints: per area, then (with `all`) every route with a tick or a blank. */
export function coverageText(table: RouteTable, all: boolean): string {
  const out: string[] = []
  const width = Math.max(...table.areas.map((a) => a.area.length))
  out.push(`GitLab ${table.gitlab.version}: fakelab answers ${table.totals.simulated} of ${table.totals.gitlab} routes read from lib/api `
    + `(${percent(table.totals.simulated, table.totals.gitlab)}); ${table.totals.fakelabOnly} more outside CE; ${table.notRead.length} mounted files not read`)
  for (const area of table.areas) {
    const counts = area.area === OUTSIDE_CE ? `${area.simulated}` : `${area.simulated}/${area.gitlab}`
    out.push(`${area.area.padEnd(width)}  ${counts}`)
    if (all) for (const r of area.routes) out.push(`  [${r.simulated ? 'x' : ' '}] ${r.method} ${r.path}${r.tier === 'paid' ? ' (paid)' : ''}`)
  }
  return `${out.join('\n')}\n`
}
