/**
 * The authorization matrix (issue 6, item 2): for every registered route, who may call it. One row
 * per route (a few routes also get a second row on a private resource), one column per kind of
 * caller, each cell GitLab's status for that caller on the default scenario. It runs on both doors,
 * and it fails when a route in `sim.routes` has no row: a new route must say who may call it.
 *
 * Every request starts from the freshly loaded scenario, so a write in one cell cannot change what
 * another cell sees, and a refused request must leave the store exactly as it was.
 *
 * Sources, for every row unless it says otherwise: api-spec.md "Authentication" and the role
 * statements per area; gitlab-behaviour.md §1.4 (a private project or group is 404 to a
 * non-member), §1.5 (401 anonymous, `read_api` only on GET, sudo), §7 (freeze periods: Maintainer+,
 * non-member of a public project 403), §9 (group milestones: read = can read the group, write =
 * Developer+ in 13.x), §12 (labels: read = can read the parent, write = `admin_label` Reporter+,
 * subscribe = can read the parent); gitlab: lib/api/labels.rb, group_labels.rb,
 * helpers/label_helpers.rb, subscriptions.rb, group_milestones.rb, freeze_periods.rb, groups.rb,
 * projects.rb, users.rb; app/policies/project_policy.rb, group_policy.rb.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { zipSync } from 'fflate'
import { expect, it } from 'vitest'
import { contract, type Api, type ApiResponse } from '../support/contract.js'
import type { Simulator } from '../../src/index.js'
import { SERVICES } from '../../src/resources/services/services.definitions.js'

/** The callers, in column order. Every one but `anonymous` sends a token of the default scenario. */
const CALLERS = {
  anonymous: {},
  guest: { token: 'glpat-gina-fakelab' },
  reporter: { token: 'glpat-riley-fakelab' },
  developer: { token: 'glpat-devon-fakelab' },
  maintainer: { token: 'glpat-max-fakelab' },
  owner: { token: 'glpat-olive-fakelab' },
  /** nora: no membership anywhere. */
  nonMember: { token: 'glpat-nora-fakelab' },
  /** root: administrator. */
  admin: { token: 'glpat-root-fakelab' },
  /** root's token (scopes api, sudo) acting as nora: nora's permissions, none of root's. */
  sudo: { token: 'glpat-root-fakelab', headers: { Sudo: 'nora' } },
  /** devon (developer) with a `read_api` token: a developer's reads, no writes. */
  readApi: { token: 'glpat-devon-readonly' },
} as const satisfies Record<string, { token?: string; headers?: Record<string, string> }>

type Caller = keyof typeof CALLERS

/** GPG public keys made for the tests (test/fixtures). */
const GPG_DEVON = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'gpg-devon.asc'), 'utf8')
const GPG_SECOND = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'gpg-second.asc'), 'utf8')

/** The display name of each caller's acting user (the sudo column acts as nora). */
const CALLER_NAMES: Record<Caller, string> = {
  anonymous: '',
  guest: 'Gina Guest',
  reporter: 'Riley Reporter',
  developer: 'Devon Developer',
  maintainer: 'Max Maintainer',
  owner: 'Olive Owner',
  nonMember: 'Nora Nobody',
  admin: 'Administrator',
  sudo: 'Nora Nobody',
  readApi: 'Devon Developer',
}
const COLUMNS = Object.keys(CALLERS) as Caller[]

/** 403 `insufficient_scope`: a write with a `read_api` token (api_guard.rb). */
const S = 'scope'
/** ivy/tracker #2's first discussion (notes 705-707): SHA-1 of `Issue-406-705`. */
const ISSUE_DISCUSSION = 'f19cd2790796d7f9d6f7addecf5a591c0f38548d'
/** acme/website !3's open discussion (notes 702, 703): SHA-1 of `MergeRequest-504-702`. */
const MR_DISCUSSION = 'f0a32e50489480bb9ecfe2eabc8c05efb4e517cd'
/** acme/website's main ("Release 1.0"), and the discussion {@link commitNote} starts on it. */
const MAIN = 'fd7d40d21b67d3419c468f3cd80559f888c6ff31'
const COMMIT_DISCUSSION = createHash('sha1').update(`Commit-${MAIN}-9001`).digest('hex')
/** A comment by riley (reporter) on acme/website's main, note 9001: the default scenario's commits carry none. */
function commitNote(sim: Simulator): void {
  sim.db.tables.notes.insert({
    id: 9001, noteable_id: null, noteable_type: 'Commit', commit_id: MAIN, project_id: 20, author_id: 3, body: 'A comment', system: false,
    confidential: null, created_at: '2021-03-21T10:00:00.000Z', updated_at: '2021-03-21T10:00:00.000Z', type: null, discussion_id: COMMIT_DISCUSSION,
  })
}
/** An artifacts archive (a.txt) on acme/website's job 2005, compile of pipeline 1003 on main: the default scenario's jobs have none. */
function jobArtifacts(sim: Simulator): void {
  sim.db.tables.job_artifacts.insert({ job_id: 2005, project_id: 20, files: [{ path: 'a.txt', content: 'YQ==' }], expire_at: '2021-05-01T00:00:00.000Z', created_at: '2021-03-21T10:01:10.000Z' })
}
/** The job token of job 2005 while it runs (runner-jobs area). */
const RUNNING_JOB_TOKEN = 'matrix-job-token-000001'
/** Job 2005 of acme/website running on runner 5 with {@link RUNNING_JOB_TOKEN}, as `POST /jobs/request` leaves it. */
function runningJob(sim: Simulator): void {
  sim.db.tables.jobs.update(2005, { status: 'running', runner_id: 5, token: RUNNING_JOB_TOKEN, finished_at: null, trace: null })
}
/** A multipart body with a one-file zip as `file` (a runner's artifacts upload). */
const artifactsZipForm = (): FormData => {
  const form = new FormData()
  form.append('file', new Blob([zipSync({ 'a.txt': new TextEncoder().encode('a') })]), 'artifacts.zip')
  return form
}
/** An impersonation token of devon's, 950: the default scenario's only one is nora's. */
function impersonationToken(sim: Simulator): void {
  sim.db.tables.personal_access_tokens.insert({
    id: 950, user_id: 4, name: 'matrix', token: 'glpat-matrix-impersonation', scopes: ['api'], revoked: false, expires_at: null, impersonation: true, created_at: '2021-03-01T10:00:00.000Z', last_used_at: null,
  })
}
/** A personal access token of devon's, 951, that the matrix may revoke. */
function devonToken(sim: Simulator): void {
  sim.db.tables.personal_access_tokens.insert({
    id: 951, user_id: 4, name: 'matrix-pat', token: 'glpat-matrix-pat', scopes: ['api'], revoked: false, expires_at: null, impersonation: false, created_at: '2021-03-01T10:00:00.000Z', last_used_at: null,
  })
}
/** An SSH key of devon's, 960 (the default scenario gives users none). */
function sshKey(sim: Simulator): void {
  sim.db.tables.keys.insert({
    id: 960, user_id: 4, type: null, title: 'laptop', key: 'ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBE0JSZO0mPmmMBtc1+zYG+JQVx3KlAaqA7gp0K4iKerMCu+vLemxi7ChVhPAFcVIWNEY1BgyLhFw53dvsJkIEgg= user@acme', fingerprint: '3a:09:dc:65:70:b4:d9:56:ad:65:da:f5:0d:aa:5e:94',
    fingerprint_sha256: 'u56ph1DmaZDRPEeo+9ueWsasTMxGBdffv0lzsYVXSYo', public: false, expires_at: null, created_at: '2021-03-01T10:00:00.000Z', updated_at: '2021-03-01T10:00:00.000Z',
  })
}
/** A GPG key of devon's, 990 (test/fixtures/gpg-second.asc; the default scenario gives users none). */
function gpgKey(sim: Simulator): void {
  sim.db.tables.gpg_keys.insert({
    id: 990, user_id: 4, key: GPG_SECOND.trim(), fingerprint: 'C8760766D73C7C94E197CA284B7DF9495D489D11', primary_keyid: '4B7DF9495D489D11', created_at: '2021-03-01T10:00:00.000Z', updated_at: '2021-03-01T10:00:00.000Z',
  })
}
/** A secondary email of devon's, 995. */
function secondaryEmail(sim: Simulator): void {
  sim.db.tables.emails.insert({ id: 995, user_id: 4, email: 'devon@matrix.example.com', confirmed_at: '2021-03-01T10:00:00.000Z', created_at: '2021-03-01T10:00:00.000Z' })
}
/** Broadcast message 970 (the default scenario has none). */
function broadcastMessage(sim: Simulator): void {
  sim.db.tables.broadcast_messages.insert({
    id: 970, message: 'Maintenance tonight', starts_at: '2021-04-01T00:00:00.000Z', ends_at: '2021-04-02T00:00:00.000Z', color: '#E75E40', font: '#FFFFFF',
    target_path: null, broadcast_type: 'banner', dismissable: null, created_at: '2021-03-31T10:00:00.000Z', updated_at: '2021-03-31T10:00:00.000Z',
  })
}
/** System hook 980 (the default scenario has none). */
function systemHook(sim: Simulator): void {
  sim.db.tables.system_hooks.insert({
    id: 980, url: 'http://hooks.example.com/system', token: null, push_events: false, tag_push_events: false, merge_requests_events: false,
    repository_update_events: true, enable_ssl_verification: true, created_at: '2021-03-31T10:00:00.000Z', updated_at: '2021-03-31T10:00:00.000Z',
  })
}
/** Badge 990 of project 20 and 991 of group 10 (the default scenario has none). */
function badges(sim: Simulator): void {
  const at = '2021-03-31T10:00:00.000Z'
  sim.db.tables.badges.insert({ id: 990, type: 'ProjectBadge', project_id: 20, group_id: null, name: null, link_url: 'http://example.com', image_url: 'http://example.com/a.svg', created_at: at, updated_at: at })
  sim.db.tables.badges.insert({ id: 991, type: 'GroupBadge', project_id: null, group_id: 10, name: null, link_url: 'http://example.com', image_url: 'http://example.com/g.svg', created_at: at, updated_at: at })
}
/** Board 995 of project 20 with label lists 996 (frontend) and 999 (docs); board 997 of group 10 with lists 998 (bug) and 994 (feature). */
function boards(sim: Simulator): void {
  const at = '2021-03-31T10:00:00.000Z'
  const stamps = { created_at: at, updated_at: at }
  sim.db.tables.boards.insert({ id: 995, project_id: 20, group_id: null, name: 'Development', hide_backlog_list: false, hide_closed_list: false, ...stamps })
  sim.db.tables.boards.insert({ id: 997, project_id: null, group_id: 10, name: 'Acme', hide_backlog_list: false, hide_closed_list: false, ...stamps })
  sim.db.tables.lists.insert({ id: 996, board_id: 995, list_type: 'label', label_id: 110, position: 0, ...stamps })
  sim.db.tables.lists.insert({ id: 999, board_id: 995, list_type: 'label', label_id: 111, position: 1, ...stamps })
  sim.db.tables.lists.insert({ id: 998, board_id: 997, list_type: 'label', label_id: 100, position: 0, ...stamps })
  sim.db.tables.lists.insert({ id: 994, board_id: 997, list_type: 'label', label_id: 101, position: 1, ...stamps })
}
const BADGE = { link_url: 'http://example.com/%{project_path}', image_url: 'http://example.com/badge.svg' }
type Cell = number | typeof S
/** One cell per caller, in the order of {@link CALLERS}. */
type Cells = [Cell, Cell, Cell, Cell, Cell, Cell, Cell, Cell, Cell, Cell]

interface Row {
  /** The route key, as in `sim.routes`. */
  key: string
  /** The path below `/api/v4`, with fixtures of the default scenario in place of the parameters. */
  path: string
  /** A JSON body that succeeds for a caller who is allowed. */
  body?: Record<string, unknown>
  /** Statuses for anonymous, guest, reporter, developer, maintainer, owner, non-member, admin, sudo, read_api. */
  expect: Cells
  /** The 404 body when it is not the one the path implies (project or group finder). */
  notFound?: unknown
  /** The body of a 400 (or a 401 other than `401 Unauthorized`), per caller when it names them. */
  badRequest?: unknown | ((caller: Caller) => unknown)
  /** The 403 body when it is not `{"message":"403 Forbidden"}` (a reason after the status; metric images' `Not allowed!`). */
  forbidden?: unknown
  /** The success body when it is not a JSON object or array (`POST /runners/verify`: `"200"`; `binary` for a download). */
  ok?: unknown
  /** A multipart body instead of `body` (issues area: metric image uploads). */
  multipart?: () => FormData
  /** Extra request headers (the runner API's `JOB-TOKEN` and `Content-Range`). */
  headers?: Record<string, string>
  /** Writes what the row needs into the freshly loaded scenario, before each call (rows on records the default scenario lacks). */
  arrange?: (sim: Simulator) => void
}

const LABEL = { name: 'matrix', color: '#123456' }
/** max's approval of acme/website !1 (merge request 500). */
function maxApproved(sim: Simulator): void {
  sim.db.tables.merge_request_approvals.insert({ merge_request_id: 500, user_id: 5, created_at: '2021-03-21T10:00:00.000Z', updated_at: '2021-03-21T10:00:00.000Z' })
}
/** A diff version 9500 of acme/website !1 (merge request 500), on SHAs the repository does not have. */
function mrVersion(sim: Simulator): void {
  sim.db.tables.merge_request_diffs.insert({
    id: 9500, merge_request_id: 500, head_commit_sha: 'a'.repeat(40), base_commit_sha: 'b'.repeat(40), start_commit_sha: 'c'.repeat(40), state: 'empty', real_size: '0', created_at: '2021-03-21T10:00:00.000Z',
  })
}
/** A multipart body with one `file` (uploads area). */
const uploadForm = (): FormData => {
  const form = new FormData()
  form.append('file', new File(['matrix'], 'matrix.txt', { type: 'text/plain' }))
  return form
}
/** Topics 1 and 2 (the default scenario has none). */
const addTopics = (sim: Simulator): void => {
  sim.db.tables.topics.insert({ id: 1, name: 'ruby', title: 'Ruby', description: null })
  sim.db.tables.topics.insert({ id: 2, name: 'rails', title: 'Rails', description: null })
}
/** 403 `No access granted`: the runner is not the caller's (runners, issue 7). */
const NO_ACCESS = { message: '403 Forbidden - No access granted' }
const COLOR = { color: '#654321' }
const FREEZE = { freeze_start: '0 1 * * *', freeze_end: '0 2 * * *', cron_timezone: 'UTC' }
const HOOK = { url: 'http://127.0.0.1:9/hook', issues_events: true }
/** A hook on acme/website (project 20), id 9100, firing on nothing but pushes. */
/** A project variable AUTHZ of project 20 and a group variable AUTHZ of group acme (issue 36 item 1). */
function ciVariables(sim: Simulator): void {
  sim.db.tables.ci_variables.insert({ project_id: 20, key: 'AUTHZ', value: 'v', variable_type: 'env_var', protected: false, masked: false, environment_scope: '*' })
  sim.db.tables.ci_group_variables.insert({ group_id: 10, key: 'AUTHZ', value: 'v', variable_type: 'env_var', protected: false, masked: false, environment_scope: '*' })
}

/** Trigger 9200 of project 20 owned by max, schedule 9300 (owned by devon) with variable AUTHZ (issue 36 item 2). */
function ciTriggers(sim: Simulator): void {
  const at = '2021-03-21T10:00:00.000Z'
  sim.db.tables.ci_triggers.insert({ id: 9200, project_id: 20, owner_id: 5, token: '0123456789abcdef0123456789abcdef01234567', description: 'authz', created_at: at, updated_at: at, last_used: null })
  sim.db.tables.ci_pipeline_schedules.insert({ id: 9300, project_id: 20, owner_id: 4, description: 'authz', ref: 'main', cron: '0 1 * * *', cron_timezone: 'UTC', next_run_at: '2021-04-02T01:19:00.000Z', active: true, created_at: at, updated_at: at })
  sim.db.tables.ci_pipeline_schedule_variables.insert({ pipeline_schedule_id: 9300, key: 'AUTHZ', value: 'v', variable_type: 'env_var' })
}

function projectHook(sim: Simulator): void {
  sim.db.tables.project_hooks.insert({
    id: 9100, project_id: 20, url: 'http://127.0.0.1:9/hook', token: null, enable_ssl_verification: true, repository_update_events: false,
    push_events_branch_filter: null, push_events: true, tag_push_events: false, issues_events: false, confidential_issues_events: false,
    merge_requests_events: false, note_events: false, confidential_note_events: false, job_events: false, pipeline_events: false,
    wiki_page_events: false, deployment_events: false, releases_events: false, created_at: '2021-03-21T10:00:00.000Z', updated_at: '2021-03-21T10:00:00.000Z',
  })
}


/** Snippets (issue 34 item 3): the user agent details of snippets 600 and 601, devon's note 9800 and award 9801 on 601. */
const SNIPPET_DISCUSSION = 'f'.repeat(40)
function snippetExtras(sim: Simulator): void {
  for (const id of [600, 601]) sim.db.tables.user_agent_details.insert({ subject_id: id, subject_type: 'Snippet', user_agent: 'matrix', ip_address: '127.0.0.1', akismet_submitted: false })
  sim.db.tables.notes.insert({ id: 9800, noteable_id: 601, noteable_type: 'Snippet', project_id: 20, author_id: 4, body: 'matrix', system: false, confidential: null, created_at: '2021-03-21T10:00:00.000Z', updated_at: '2021-03-21T10:00:00.000Z', type: 'DiscussionNote', discussion_id: SNIPPET_DISCUSSION })
  sim.db.tables.award_emoji.insert({ id: 9801, awardable_id: 601, awardable_type: 'Snippet', name: 'thumbsup', user_id: 4, created_at: '2021-03-21T10:00:00.000Z' })
  sim.db.tables.award_emoji.insert({ id: 9802, awardable_id: 9800, awardable_type: 'Note', name: 'thumbsup', user_id: 4, created_at: '2021-03-21T10:00:00.000Z' })
}
/** Snippets 600 and 601 with known file contents (the scenario's are faker's). */
function snippetFiles(sim: Simulator): void {
  for (const [id, path] of [[600, 'aliases.sh'], [601, 'deploy.sh']] as const) {
    sim.db.tables.snippet_repositories.update(id, { commits: [{ files: [[path, 'matrix\n']], message: 'Initial commit', author_name: 'matrix', author_email: 'matrix@example.com', at: '2021-03-21T10:00:00.000Z' }] })
  }
}
const SNIPPET_BODY = { title: 'matrix', file_name: 'matrix.txt', content: 'matrix' }
const SNIPPET_404 = { message: '404 Snippet Not Found' }

/** Wikis (issue 34 item 4): page `home` (9900) of acme/website. */
function wikiHome(sim: Simulator): void {
  sim.db.tables.wiki_pages.insert({ id: 9900, project_id: 20, slug: 'home', format: 'markdown', content: 'Welcome', author_id: 5, created_at: '2021-03-21T10:00:00.000Z', updated_at: '2021-03-21T10:00:00.000Z' })
}
const wikiFile = (): FormData => {
  const form = new FormData()
  form.append('file', new Blob(['matrix']), 'matrix.txt')
  return form
}
/** Asana set on acme/website (project 20), service 9200 (the default scenario sets none). */
function asanaService(sim: Simulator): void {
  sim.db.tables.services.insert({
    id: 9200, project_id: 20, slug: 'asana', active: true, properties: { api_key: 'k' }, commit_events: true, push_events: true, issues_events: true,
    confidential_issues_events: true, merge_requests_events: true, tag_push_events: true, note_events: true, confidential_note_events: true,
    pipeline_events: false, wiki_page_events: true, job_events: false, comment_on_event_enabled: true, created_at: '2021-03-21T10:00:00.000Z', updated_at: '2021-03-21T10:00:00.000Z',
  })
}
/** Project services under both prefixes (lib/api/services.rb): admin_project, Maintainer+, checked before the params. */
const SERVICE_ROWS: Row[] = (['services', 'integrations'] as const).flatMap((prefix): Row[] => [
  { key: `GET /projects/:id/${prefix}`, path: `/projects/20/${prefix}`, arrange: asanaService, expect: [401, 403, 403, 403, 200, 200, 403, 200, 403, 403] },
  { key: `GET /projects/:id/${prefix}`, path: `/projects/21/${prefix}`, expect: [401, 403, 403, 403, 200, 200, 404, 200, 404, 403] },
  { key: `GET /projects/:id/${prefix}/:slug`, path: `/projects/20/${prefix}/asana`, arrange: asanaService, expect: [401, 403, 403, 403, 200, 200, 403, 200, 403, 403] },
  { key: `DELETE /projects/:id/${prefix}/:slug`, path: `/projects/20/${prefix}/asana`, arrange: asanaService, expect: [401, 403, 403, 403, 204, 204, 403, 204, 403, S] },
  ...SERVICES.map((service): Row => ({
    key: `PUT /projects/:id/${prefix}/${service.slug}`,
    path: `/projects/20/${prefix}/${service.slug}`,
    body: Object.fromEntries(service.fields.filter((f) => f.required).map((f) => [f.name, f.type === 'boolean' ? true : f.type === 'integer' ? 1 : 'https://example.com/x'])),
    expect: [401, 403, 403, 403, 200, 200, 403, 200, 403, S],
  })),
])

/** A finished export of acme/website (project 20) and of acme (group 10): a few bytes each. */
function exports(sim: Simulator): void {
  sim.db.tables.import_export_uploads.insert({ id: 9300, kind: 'project', owner_id: 20, filename: 'x_export.tar.gz', archive: 'H4sIAAAAAAAAAwMAAAAAAAAAAAA=', created_at: '2021-03-21T10:00:00.000Z' })
  sim.db.tables.import_export_uploads.insert({ id: 9301, kind: 'group', owner_id: 10, filename: 'y_export.tar.gz', archive: 'H4sIAAAAAAAAAwMAAAAAAAAAAAA=', created_at: '2021-03-21T10:00:00.000Z' })
}
/** A multipart import: a file (not an export: the import is made and marked failed) and the fields. */
const importForm = (fields: Record<string, string>) => (): FormData => {
  const form = new FormData()
  for (const [k, v] of Object.entries(fields)) form.append(k, v)
  form.append('file', new Blob([new Uint8Array([1, 2, 3])]), 'export.tar.gz')
  return form
}
/** Issue 34 item 7: forks, stars, archive, housekeeping, storage, languages, shared projects, export and import (lib/api/projects.rb, groups.rb, project_export.rb, project_import.rb, group_export.rb, group_import.rb). */
const PROJECT_ACTION_ROWS: Row[] = [
  // fork_project: Reporter+, or any signed-in user on a public project; into the caller's namespace.
  { key: 'POST /projects/:id/fork', path: '/projects/20/fork', expect: [401, 201, 201, 201, 201, 201, 201, 201, 201, S] },
  { key: 'GET /projects/:id/forks', path: '/projects/20/forks', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'POST /projects/:id/fork/:forked_from_id', path: '/projects/21/fork/20', expect: [401, 403, 403, 403, 201, 201, 404, 201, 404, S] },
  // remove_fork_project: owners; project 20 linked as a fork of 21 first.
  { key: 'DELETE /projects/:id/fork', path: '/projects/20/fork', arrange: (sim) => void sim.db.tables.fork_network_members.insert({ id: 9400, project_id: 20, forked_from_project_id: 21, created_at: '2021-03-21T10:00:00.000Z' }), expect: [401, 403, 403, 403, 403, 204, 403, 204, 403, S] },
  { key: 'POST /projects/:id/star', path: '/projects/20/star', expect: [401, 201, 201, 201, 201, 201, 201, 201, 201, S] },
  // Nobody starred project 20: unstarring answers 304.
  { key: 'POST /projects/:id/unstar', path: '/projects/20/unstar', expect: [401, 304, 304, 304, 304, 304, 304, 304, 304, S] },
  { key: 'GET /projects/:id/starrers', path: '/projects/20/starrers', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/starrers', path: '/projects/21/starrers', expect: [404, 200, 200, 200, 200, 200, 404, 200, 404, 200] },
  // archive_project: owners.
  { key: 'POST /projects/:id/archive', path: '/projects/20/archive', expect: [401, 403, 403, 403, 403, 201, 403, 201, 403, S] },
  { key: 'POST /projects/:id/unarchive', path: '/projects/20/unarchive', expect: [401, 403, 403, 403, 403, 201, 403, 201, 403, S] },
  { key: 'POST /projects/:id/housekeeping', path: '/projects/20/housekeeping', ok: expect.stringMatching(/^"[0-9a-f]{24}"$/), expect: [401, 403, 403, 403, 201, 201, 403, 201, 403, S] },
  { key: 'GET /projects/:id/storage', path: '/projects/20/storage', expect: [401, 403, 403, 403, 403, 403, 403, 200, 403, 403] },
  { key: 'GET /projects/:id/languages', path: '/projects/20/languages', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/languages', path: '/projects/21/languages', expect: [404, 200, 200, 200, 200, 200, 404, 200, 404, 200] },
  { key: 'GET /groups/:id/projects/shared', path: '/groups/12/projects/shared', expect: [404, 404, 404, 404, 404, 200, 404, 200, 404, 404] },
  // Project export: admin_project (Maintainer+).
  { key: 'GET /projects/:id/export', path: '/projects/20/export', expect: [401, 403, 403, 403, 200, 200, 403, 200, 403, 403] },
  { key: 'GET /projects/:id/export/download', path: '/projects/20/export/download', arrange: exports, ok: 'binary', expect: [401, 403, 403, 403, 200, 200, 403, 200, 403, 403] },
  { key: 'POST /projects/:id/export', path: '/projects/20/export', expect: [401, 403, 403, 403, 202, 202, 403, 202, 403, S] },
  { key: 'POST /projects/import', path: '/projects/import', multipart: importForm({ path: 'matrix-import' }), expect: [401, 201, 201, 201, 201, 201, 201, 201, 201, S] },
  { key: 'GET /projects/:id/import', path: '/projects/20/import', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  // Group export: admin_group (Owner).
  { key: 'POST /groups/:id/export', path: '/groups/10/export', expect: [401, 403, 403, 403, 403, 202, 403, 202, 403, S] },
  { key: 'GET /groups/:id/export/download', path: '/groups/10/export/download', arrange: exports, ok: 'binary', expect: [401, 403, 403, 403, 403, 200, 403, 200, 403, 403] },
  { key: 'POST /groups/import', path: '/groups/import', multipart: importForm({ path: 'matrix-import', name: 'Matrix import' }), expect: [401, 202, 202, 202, 202, 202, 202, 202, 202, S] },
]

// Fixtures (scenarios/default.yaml): project 20 acme/website (public) and 21 acme/platform/api
// (private), both with acme's members; group 10 acme (public), 11 acme/platform (private, acme's
// members inherited), 12 secret-lab (private, olive only). Labels: 110 frontend (project 20), 100 bug
// and 101 feature (group 10; devon subscribes to bug). Milestone 200 (group 10), freeze period 300.
//
//                                                                       anon guest rep  dev  main own  nora root sudo read_api
const ROWS: Row[] = [
  // Freeze periods: Maintainer+; a non-member of a public project gets 403, of a private one 404.
  { key: 'GET /projects/:id/freeze_periods', path: '/projects/20/freeze_periods', expect: [401, 403, 403, 403, 200, 200, 403, 200, 403, 403] },
  { key: 'GET /projects/:id/freeze_periods', path: '/projects/21/freeze_periods', expect: [401, 403, 403, 403, 200, 200, 404, 200, 404, 403] },
  { key: 'GET /projects/:id/freeze_periods/:freeze_period_id', path: '/projects/20/freeze_periods/300', expect: [401, 403, 403, 403, 200, 200, 403, 200, 403, 403] },
  { key: 'POST /projects/:id/freeze_periods', path: '/projects/20/freeze_periods', body: FREEZE, expect: [401, 403, 403, 403, 201, 201, 403, 201, 403, S] },
  { key: 'POST /projects/:id/freeze_periods', path: '/projects/21/freeze_periods', body: FREEZE, expect: [401, 403, 403, 403, 201, 201, 404, 201, 404, S] },
  { key: 'PUT /projects/:id/freeze_periods/:freeze_period_id', path: '/projects/20/freeze_periods/300', body: { freeze_start: '0 1 * * *' }, expect: [401, 403, 403, 403, 200, 200, 403, 200, 403, S] },
  { key: 'DELETE /projects/:id/freeze_periods/:freeze_period_id', path: '/projects/20/freeze_periods/300', expect: [401, 403, 403, 403, 204, 204, 403, 204, 403, S] },
  // Project hooks (lib/api/project_hooks.rb): admin_project, Maintainer+; hook 9100 on project 20 ({@link projectHook}).
  { key: 'GET /projects/:id/hooks', path: '/projects/20/hooks', arrange: projectHook, expect: [401, 403, 403, 403, 200, 200, 403, 200, 403, 403] },
  { key: 'GET /projects/:id/hooks', path: '/projects/21/hooks', expect: [401, 403, 403, 403, 200, 200, 404, 200, 404, 403] },
  { key: 'GET /projects/:id/hooks/:hook_id', path: '/projects/20/hooks/9100', arrange: projectHook, expect: [401, 403, 403, 403, 200, 200, 403, 200, 403, 403] },
  { key: 'POST /projects/:id/hooks', path: '/projects/20/hooks', body: HOOK, expect: [401, 403, 403, 403, 201, 201, 403, 201, 403, S] },
  { key: 'PUT /projects/:id/hooks/:hook_id', path: '/projects/20/hooks/9100', body: HOOK, arrange: projectHook, expect: [401, 403, 403, 403, 200, 200, 403, 200, 403, S] },
  { key: 'DELETE /projects/:id/hooks/:hook_id', path: '/projects/20/hooks/9100', arrange: projectHook, expect: [401, 403, 403, 403, 204, 204, 403, 204, 403, S] },
  ...SERVICE_ROWS,
  ...PROJECT_ACTION_ROWS,
  // Badges (lib/api/badges.rb): read = readable source (anonymous too); render and writes = admin_project
  // (Maintainer+) or admin_group (Owner); badge 990 on project 20, 991 on group 10 ({@link badges}).
  { key: 'GET /projects/:id/badges', path: '/projects/20/badges', arrange: badges, expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/badges', path: '/projects/21/badges', expect: [404, 200, 200, 200, 200, 200, 404, 200, 404, 200] },
  { key: 'GET /projects/:id/badges/render', path: '/projects/20/badges/render?link_url=http://a.example.com&image_url=http://b.example.com', expect: [401, 403, 403, 403, 200, 200, 403, 200, 403, 403] },
  { key: 'GET /projects/:id/badges/:badge_id', path: '/projects/20/badges/990', arrange: badges, expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'POST /projects/:id/badges', path: '/projects/20/badges', body: BADGE, expect: [401, 403, 403, 403, 201, 201, 403, 201, 403, S] },
  { key: 'PUT /projects/:id/badges/:badge_id', path: '/projects/20/badges/990', body: BADGE, arrange: badges, expect: [401, 403, 403, 403, 200, 200, 403, 200, 403, S] },
  { key: 'DELETE /projects/:id/badges/:badge_id', path: '/projects/20/badges/990', arrange: badges, expect: [401, 403, 403, 403, 204, 204, 403, 204, 403, S] },
  { key: 'GET /groups/:id/badges', path: '/groups/10/badges', arrange: badges, expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /groups/:id/badges/render', path: '/groups/10/badges/render?link_url=http://a.example.com&image_url=http://b.example.com', expect: [401, 403, 403, 403, 403, 200, 403, 200, 403, 403] },
  { key: 'GET /groups/:id/badges/:badge_id', path: '/groups/10/badges/991', arrange: badges, expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'POST /groups/:id/badges', path: '/groups/10/badges', body: BADGE, expect: [401, 403, 403, 403, 403, 201, 403, 201, 403, S] },
  { key: 'PUT /groups/:id/badges/:badge_id', path: '/groups/10/badges/991', body: BADGE, arrange: badges, expect: [401, 403, 403, 403, 403, 200, 403, 200, 403, S] },
  { key: 'DELETE /groups/:id/badges/:badge_id', path: '/groups/10/badges/991', arrange: badges, expect: [401, 403, 403, 403, 403, 204, 403, 204, 403, S] },
  // Boards (lib/api/boards.rb, group_boards.rb): authenticate!; read = readable parent; writes = Reporter+
  // (admin_issue_board[_list]); board 995 (lists 996, 999) on project 20, board 997 (lists 998, 994) on group 10 ({@link boards}).
  { key: 'GET /projects/:id/boards', path: '/projects/20/boards', arrange: boards, expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/boards', path: '/projects/21/boards', expect: [401, 200, 200, 200, 200, 200, 404, 200, 404, 200] },
  { key: 'GET /projects/:id/boards/:board_id', path: '/projects/20/boards/995', arrange: boards, expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'POST /projects/:id/boards', path: '/projects/20/boards', body: { name: 'matrix' }, expect: [401, 403, 201, 201, 201, 201, 403, 201, 403, S] },
  { key: 'PUT /projects/:id/boards/:board_id', path: '/projects/20/boards/995', body: { name: 'matrix' }, arrange: boards, expect: [401, 403, 200, 200, 200, 200, 403, 200, 403, S] },
  { key: 'DELETE /projects/:id/boards/:board_id', path: '/projects/20/boards/995', arrange: boards, expect: [401, 403, 204, 204, 204, 204, 403, 204, 403, S] },
  { key: 'GET /projects/:id/boards/:board_id/lists', path: '/projects/20/boards/995/lists', arrange: boards, expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/boards/:board_id/lists/:list_id', path: '/projects/20/boards/995/lists/996', arrange: boards, expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'POST /projects/:id/boards/:board_id/lists', path: '/projects/20/boards/995/lists', body: { label_id: 112 }, arrange: boards, expect: [401, 403, 201, 201, 201, 201, 403, 201, 403, S] },
  { key: 'PUT /projects/:id/boards/:board_id/lists/:list_id', path: '/projects/20/boards/995/lists/996', body: { position: 1 }, arrange: boards, expect: [401, 403, 200, 200, 200, 200, 403, 200, 403, S] },
  { key: 'DELETE /projects/:id/boards/:board_id/lists/:list_id', path: '/projects/20/boards/995/lists/996', arrange: boards, expect: [401, 403, 204, 204, 204, 204, 403, 204, 403, S] },
  { key: 'GET /groups/:id/boards', path: '/groups/10/boards', arrange: boards, expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /groups/:id/boards/:board_id', path: '/groups/10/boards/997', arrange: boards, expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'POST /groups/:id/boards', path: '/groups/10/boards', body: { name: 'matrix' }, expect: [401, 403, 201, 201, 201, 201, 403, 201, 403, S] },
  { key: 'PUT /groups/:id/boards/:board_id', path: '/groups/10/boards/997', body: { name: 'matrix' }, arrange: boards, expect: [401, 403, 200, 200, 200, 200, 403, 200, 403, S] },
  { key: 'DELETE /groups/:id/boards/:board_id', path: '/groups/10/boards/997', arrange: boards, expect: [401, 403, 204, 204, 204, 204, 403, 204, 403, S] },
  { key: 'GET /groups/:id/boards/:board_id/lists', path: '/groups/10/boards/997/lists', arrange: boards, expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /groups/:id/boards/:board_id/lists/:list_id', path: '/groups/10/boards/997/lists/998', arrange: boards, expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'POST /groups/:id/boards/:board_id/lists', path: '/groups/10/boards/997/lists', body: { label_id: 102 }, arrange: boards, expect: [401, 403, 201, 201, 201, 201, 403, 201, 403, S] },
  { key: 'PUT /groups/:id/boards/:board_id/lists/:list_id', path: '/groups/10/boards/997/lists/998', body: { position: 1 }, arrange: boards, expect: [401, 403, 200, 200, 200, 200, 403, 200, 403, S] },
  { key: 'DELETE /groups/:id/boards/:board_id/lists/:list_id', path: '/groups/10/boards/997/lists/998', arrange: boards, expect: [401, 403, 204, 204, 204, 204, 403, 204, 403, S] },

  // Group labels: read = can read the group; write = admin_label (Reporter+); subscribe = read.
  { key: 'GET /groups/:id/labels', path: '/groups/10/labels', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /groups/:id/labels', path: '/groups/11/labels', expect: [401, 200, 200, 200, 200, 200, 404, 200, 404, 200] },
  { key: 'GET /groups/:id/labels/:label_id', path: '/groups/10/labels/100', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'POST /groups/:id/labels', path: '/groups/10/labels', body: LABEL, expect: [401, 403, 201, 201, 201, 201, 403, 201, 403, S] },
  { key: 'POST /groups/:id/labels', path: '/groups/11/labels', body: LABEL, expect: [401, 403, 201, 201, 201, 201, 404, 201, 404, S] },
  { key: 'PUT /groups/:id/labels/:label_id', path: '/groups/10/labels/101', body: COLOR, expect: [401, 403, 200, 200, 200, 200, 403, 200, 403, S] },
  { key: 'PUT /groups/:id/labels', path: '/groups/10/labels', body: { name: 'feature', ...COLOR }, expect: [401, 403, 200, 200, 200, 200, 403, 200, 403, S] },
  { key: 'DELETE /groups/:id/labels/:label_id', path: '/groups/10/labels/101', expect: [401, 403, 204, 204, 204, 204, 403, 204, 403, S] },
  { key: 'DELETE /groups/:id/labels', path: '/groups/10/labels', body: { name: 'feature' }, expect: [401, 403, 204, 204, 204, 204, 403, 204, 403, S] },
  { key: 'POST /groups/:id/labels/:label_id/subscribe', path: '/groups/10/labels/101/subscribe', expect: [401, 201, 201, 201, 201, 201, 201, 201, 201, S] },
  // Only devon is subscribed to bug: everyone else is already unsubscribed (304).
  { key: 'POST /groups/:id/labels/:label_id/unsubscribe', path: '/groups/10/labels/100/unsubscribe', expect: [401, 304, 304, 201, 304, 304, 304, 304, 304, S] },

  // Project milestones: read = can read the project; write = admin_milestone (Developer+ in 13.x);
  // promote also needs admin_milestone on the project's group (acme: the same people).
  { key: 'GET /projects/:id/milestones', path: '/projects/20/milestones', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/milestones', path: '/projects/21/milestones', expect: [401, 200, 200, 200, 200, 200, 404, 200, 404, 200] },
  { key: 'GET /projects/:id/milestones/:milestone_id', path: '/projects/20/milestones/220', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'POST /projects/:id/milestones', path: '/projects/20/milestones', body: { title: 'matrix' }, expect: [401, 403, 403, 201, 201, 201, 403, 201, 403, S] },
  { key: 'PUT /projects/:id/milestones/:milestone_id', path: '/projects/20/milestones/220', body: { description: 'matrix' }, expect: [401, 403, 403, 200, 200, 200, 403, 200, 403, S] },
  { key: 'DELETE /projects/:id/milestones/:milestone_id', path: '/projects/20/milestones/220', expect: [401, 403, 403, 204, 204, 204, 403, 204, 403, S] },
  { key: 'GET /projects/:id/milestones/:milestone_id/issues', path: '/projects/20/milestones/220/issues', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/milestones/:milestone_id/merge_requests', path: '/projects/20/milestones/220/merge_requests', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'POST /projects/:id/milestones/:milestone_id/promote', path: '/projects/20/milestones/220/promote', ok: '200', expect: [401, 403, 403, 200, 200, 200, 403, 200, 403, S] },
  // ivy/tracker is personal: no group to promote to, so nobody may, administrators included.
  { key: 'POST /projects/:id/milestones/:milestone_id/promote', path: '/projects/30/milestones/221/promote', expect: [401, 403, 403, 403, 403, 403, 403, 403, 403, S] },

  // Group milestones: read = can read the group; write = admin_milestone (Developer+ in 13.x).
  { key: 'GET /groups/:id/milestones', path: '/groups/10/milestones', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /groups/:id/milestones', path: '/groups/11/milestones', expect: [401, 200, 200, 200, 200, 200, 404, 200, 404, 200] },
  { key: 'GET /groups/:id/milestones/:milestone_id', path: '/groups/10/milestones/200', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'POST /groups/:id/milestones', path: '/groups/10/milestones', body: { title: 'matrix' }, expect: [401, 403, 403, 201, 201, 201, 403, 201, 403, S] },
  { key: 'POST /groups/:id/milestones', path: '/groups/11/milestones', body: { title: 'matrix' }, expect: [401, 403, 403, 201, 201, 201, 404, 201, 404, S] },
  { key: 'PUT /groups/:id/milestones/:milestone_id', path: '/groups/10/milestones/200', body: { description: 'matrix' }, expect: [401, 403, 403, 200, 200, 200, 403, 200, 403, S] },
  { key: 'DELETE /groups/:id/milestones/:milestone_id', path: '/groups/10/milestones/200', expect: [401, 403, 403, 204, 204, 204, 403, 204, 403, S] },
  { key: 'GET /groups/:id/milestones/:milestone_id/issues', path: '/groups/10/milestones/200/issues', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /groups/:id/milestones/:milestone_id/merge_requests', path: '/groups/10/milestones/200/merge_requests', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  // Higher-tier, as GitLab Premium answers (issue 23 item 10): read = can read the group.
  { key: 'GET /groups/:id/milestones/:milestone_id/burndown_events', path: '/groups/10/milestones/200/burndown_events', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /groups/:id/milestones/:milestone_id/burndown_events', path: '/groups/11/milestones/210/burndown_events', expect: [401, 200, 200, 200, 200, 200, 404, 200, 404, 200] },

  // Groups: anonymous allowed, public data only; a private group is 404 to whoever cannot read it.
  { key: 'GET /groups', path: '/groups', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /groups/:id', path: '/groups/10', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /groups/:id', path: '/groups/12', expect: [404, 404, 404, 404, 404, 200, 404, 200, 404, 404] },
  // --- arrange-directory: group writes (gitlab: lib/api/groups.rb) ---
  // Create: any user who may create groups (all of them by default); delete: admin_group (Owner), 202.
  { key: 'POST /groups', path: '/groups', body: { name: 'matrix', path: 'matrix' }, expect: [401, 201, 201, 201, 201, 201, 201, 201, 201, S] },
  { key: 'PUT /groups/:id', path: '/groups/11', body: { description: 'matrix' }, expect: [401, 403, 403, 403, 403, 200, 404, 200, 404, S] },
  { key: 'DELETE /groups/:id', path: '/groups/10', expect: [401, 403, 403, 403, 403, 202, 403, 202, 403, S] },
  { key: 'DELETE /groups/:id', path: '/groups/12', expect: [401, 404, 404, 404, 404, 202, 404, 202, 404, S] },
  // --- end arrange-directory: group writes ---
  // --- groups-tree: the namespace tree (gitlab: lib/api/groups.rb, projects.rb) ---
  // Lists: anonymous allowed, whoever can read the group or project (a private one is 404).
  { key: 'GET /groups/:id/subgroups', path: '/groups/10/subgroups', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /groups/:id/subgroups', path: '/groups/11/subgroups', expect: [404, 200, 200, 200, 200, 200, 404, 200, 404, 200] },
  { key: 'GET /groups/:id/descendant_groups', path: '/groups/10/descendant_groups', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /groups/:id/descendant_groups', path: '/groups/12/descendant_groups', expect: [404, 404, 404, 404, 404, 200, 404, 200, 404, 404] },
  { key: 'GET /groups/:id/projects', path: '/groups/10/projects', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /groups/:id/projects', path: '/groups/11/projects', expect: [404, 200, 200, 200, 200, 200, 404, 200, 404, 200] },
  { key: 'GET /projects/:id/groups', path: '/projects/20/groups', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/groups', path: '/projects/21/groups', expect: [404, 200, 200, 200, 200, 200, 404, 200, 404, 200] },
  { key: 'GET /users/:user_id/projects', path: '/users/6/projects', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  // A user's starred projects (usersadm): anyone, the list narrowed to what the caller can read.
  { key: 'GET /users/:user_id/starred_projects', path: '/users/4/starred_projects', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  // A user's memberships: administrators only (users.rb `authenticated_as_admin!`).
  // Project transfer: change_namespace (the project's owners, administrators), then
  // transfer_projects in the target (Maintainer+ of secret-lab: olive).
  { key: 'PUT /projects/:id/transfer', path: '/projects/20/transfer', body: { namespace: 'secret-lab' }, expect: [401, 403, 403, 403, 403, 200, 403, 200, 403, S] },
  { key: 'PUT /projects/:id/transfer', path: '/projects/21/transfer', body: { namespace: '12' }, expect: [401, 403, 403, 403, 403, 200, 404, 200, 404, S] },
  // Into a group: administrators only (authenticated_as_admin!).
  { key: 'POST /groups/:id/projects/:project_id', path: '/groups/12/projects/20', expect: [401, 403, 403, 403, 403, 403, 403, 201, 403, S] },
  // Group transfer (14.6): admin_group (Owner) of the group, create_subgroup (Maintainer+) in the new parent.
  { key: 'POST /groups/:id/transfer', path: '/groups/11/transfer', body: { group_id: 12 }, expect: [401, 403, 403, 403, 403, 201, 404, 201, 404, S] },
  // --- end groups-tree ---

  // Sharing (gitlab: lib/api/groups.rb, projects.rb): a group share needs Owner of the shared group
  // and read of the other; a project share admin_project (Maintainer+) and read of the group
  // (max cannot read secret-lab: the service's 404 `Not Found`). Default scenario: platform (11)
  // and handbook (23) are shared with secret-lab (12).
  { key: 'POST /groups/:id/share', path: '/groups/12/share', body: { group_id: 10, group_access: 20 }, expect: [401, 404, 404, 404, 404, 201, 404, 201, 404, S] },
  // The API answers 204 to any reader; only an Owner's request removes the share (contract tests).
  { key: 'DELETE /groups/:id/share/:group_id', path: '/groups/11/share/12', expect: [401, 204, 204, 204, 204, 204, 404, 204, 404, S] },
  { key: 'POST /projects/:id/share', path: '/projects/20/share', body: { group_id: 12, group_access: 20 }, notFound: { message: 'Not Found' }, expect: [401, 403, 403, 403, 404, 201, 403, 201, 403, S] },
  { key: 'DELETE /projects/:id/share/:group_id', path: '/projects/23/share/12', expect: [401, 403, 403, 403, 204, 204, 403, 204, 403, S] },
  // A user's memberships: administrators only (`authenticated_as_admin!`).
  { key: 'GET /users/:user_id/memberships', path: '/users/7/memberships', expect: [401, 403, 403, 403, 403, 403, 403, 200, 403, 403] },

  // Project labels: read = can read the project; write = admin_label (Reporter+); promote =
  // admin_label on the project's group (acme: the same roles); subscribe = read.
  { key: 'GET /projects/:id/labels', path: '/projects/20/labels', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/labels', path: '/projects/21/labels', expect: [401, 200, 200, 200, 200, 200, 404, 200, 404, 200] },
  { key: 'GET /projects/:id/labels/:label_id', path: '/projects/20/labels/110', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'POST /projects/:id/labels', path: '/projects/20/labels', body: LABEL, expect: [401, 403, 201, 201, 201, 201, 403, 201, 403, S] },
  { key: 'POST /projects/:id/labels', path: '/projects/21/labels', body: LABEL, expect: [401, 403, 201, 201, 201, 201, 404, 201, 404, S] },
  { key: 'PUT /projects/:id/labels/:label_id', path: '/projects/20/labels/110', body: COLOR, expect: [401, 403, 200, 200, 200, 200, 403, 200, 403, S] },
  { key: 'PUT /projects/:id/labels', path: '/projects/20/labels', body: { name: 'frontend', ...COLOR }, expect: [401, 403, 200, 200, 200, 200, 403, 200, 403, S] },
  { key: 'DELETE /projects/:id/labels/:label_id', path: '/projects/20/labels/110', expect: [401, 403, 204, 204, 204, 204, 403, 204, 403, S] },
  { key: 'DELETE /projects/:id/labels', path: '/projects/20/labels', body: { name: 'frontend' }, expect: [401, 403, 204, 204, 204, 204, 403, 204, 403, S] },
  { key: 'PUT /projects/:id/labels/:label_id/promote', path: '/projects/20/labels/110/promote', expect: [401, 403, 200, 200, 200, 200, 403, 200, 403, S] },
  { key: 'PUT /projects/:id/labels/promote', path: '/projects/20/labels/promote', body: { name: 'frontend' }, expect: [401, 403, 200, 200, 200, 200, 403, 200, 403, S] },
  { key: 'POST /projects/:id/labels/:label_id/subscribe', path: '/projects/20/labels/110/subscribe', expect: [401, 201, 201, 201, 201, 201, 201, 201, 201, S] },
  { key: 'POST /projects/:id/labels/:label_id/unsubscribe', path: '/projects/20/labels/110/unsubscribe', expect: [401, 304, 304, 304, 304, 304, 304, 304, 304, S] },

  // Projects: anonymous allowed, public data only; a private project is 404 to a non-member.
  { key: 'GET /projects', path: '/projects', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id', path: '/projects/20', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id', path: '/projects/21', expect: [404, 200, 200, 200, 200, 200, 404, 200, 404, 200] },
  // --- arrange-directory: project writes (gitlab: lib/api/projects.rb) ---
  // Create: any signed-in user, in their own namespace; for another user: administrators (checked
  // in the endpoint). Update: admin_project (Maintainer+). Delete: remove_project (Owner), 202.
  { key: 'POST /projects', path: '/projects', body: { name: 'matrix' }, expect: [401, 201, 201, 201, 201, 201, 201, 201, 201, S] },
  { key: 'POST /projects/user/:user_id', path: '/projects/user/7', body: { name: 'matrix' }, expect: [401, 403, 403, 403, 403, 403, 403, 201, 403, S] },
  { key: 'PUT /projects/:id', path: '/projects/20', body: { description: 'matrix' }, expect: [401, 403, 403, 403, 200, 200, 403, 200, 403, S] },
  { key: 'PUT /projects/:id', path: '/projects/21', body: { description: 'matrix' }, expect: [401, 403, 403, 403, 200, 200, 404, 200, 404, S] },
  { key: 'DELETE /projects/:id', path: '/projects/20', expect: [401, 403, 403, 403, 403, 202, 403, 202, 403, S] },
  { key: 'DELETE /projects/:id', path: '/projects/21', expect: [401, 403, 403, 403, 403, 202, 404, 202, 404, S] },
  // --- end arrange-directory: project writes ---

  // [members] Members (gitlab-behaviour.md §11): read = can read the source; add/update =
  // admin_project_member (Maintainer+) or admin_group_member (Owner); remove = the same, or the
  // member themself (devon leaving acme); override = Owner of an LDAP-synced group. Billable members (EE): Owner, failures
  // 400 (§14 item 15). Project access tokens (§3, §14 item 9): Maintainer+; list 401, create and
  // revoke 400 below that. Elena (9) is a direct member of website (20), devon (4) of acme (10).
  { key: 'GET /projects/:id/members', path: '/projects/20/members', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/members', path: '/projects/21/members', expect: [401, 200, 200, 200, 200, 200, 404, 200, 404, 200] },
  { key: 'GET /projects/:id/members/all', path: '/projects/20/members/all', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/members/all', path: '/projects/21/members/all', expect: [401, 200, 200, 200, 200, 200, 404, 200, 404, 200] },
  { key: 'GET /projects/:id/members/:user_id', path: '/projects/20/members/9', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/members/all/:user_id', path: '/projects/20/members/all/4', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'POST /projects/:id/members', path: '/projects/20/members', body: { user_id: 8, access_level: 30 }, expect: [401, 403, 403, 403, 201, 201, 403, 201, 403, S] },
  { key: 'POST /projects/:id/members', path: '/projects/21/members', body: { user_id: 8, access_level: 30 }, expect: [401, 403, 403, 403, 201, 201, 404, 201, 404, S] },
  { key: 'PUT /projects/:id/members/:user_id', path: '/projects/20/members/9', body: { access_level: 20 }, expect: [401, 403, 403, 403, 200, 200, 403, 200, 403, S] },
  { key: 'DELETE /projects/:id/members/:user_id', path: '/projects/20/members/9', expect: [401, 403, 403, 403, 204, 204, 403, 204, 403, S] },
  { key: 'GET /groups/:id/members', path: '/groups/10/members', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /groups/:id/members', path: '/groups/11/members', expect: [401, 200, 200, 200, 200, 200, 404, 200, 404, 200] },
  { key: 'GET /groups/:id/members/all', path: '/groups/10/members/all', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /groups/:id/members/:user_id', path: '/groups/10/members/4', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /groups/:id/members/all/:user_id', path: '/groups/11/members/all/4', expect: [401, 200, 200, 200, 200, 200, 404, 200, 404, 200] },
  { key: 'POST /groups/:id/members', path: '/groups/10/members', body: { user_id: 8, access_level: 30 }, expect: [401, 403, 403, 403, 403, 201, 403, 201, 403, S] },
  { key: 'PUT /groups/:id/members/:user_id', path: '/groups/10/members/4', body: { access_level: 20 }, expect: [401, 403, 403, 403, 403, 200, 403, 200, 403, S] },
  { key: 'DELETE /groups/:id/members/:user_id', path: '/groups/10/members/4', expect: [401, 403, 403, 204, 403, 204, 403, 204, 403, S] },
  // Override (EE `override_group_member`): only on an LDAP-synced group, which acme is not, so 403 to
  // everyone, administrators included (issue 23 item 3; the synced case: test/contract/members/members.contract.ts).
  { key: 'POST /groups/:id/members/:user_id/override', path: '/groups/10/members/4/override', expect: [401, 403, 403, 403, 403, 403, 403, 403, 403, S] },
  { key: 'DELETE /groups/:id/members/:user_id/override', path: '/groups/10/members/4/override', expect: [401, 403, 403, 403, 403, 403, 403, 403, 403, S] },
  { key: 'GET /groups/:id/billable_members', path: '/groups/10/billable_members', badRequest: { message: '400 Bad request' }, expect: [401, 400, 400, 400, 400, 200, 400, 200, 400, 400] },
  { key: 'GET /groups/:id/billable_members/:user_id/memberships', path: '/groups/10/billable_members/9/memberships', badRequest: { message: '400 Bad request' }, expect: [401, 400, 400, 400, 400, 200, 400, 200, 400, 400] },
  { key: 'DELETE /groups/:id/billable_members/:user_id', path: '/groups/10/billable_members/9', badRequest: { message: '400 Bad request - User unauthorized to remove member' }, expect: [401, 400, 400, 400, 400, 204, 400, 204, 400, S] },
  // [invitations] Invitations (invitations.rb 13.12): list = can read the source; invite, update and
  // delete = admin_project_member (Maintainer) / admin_group_member (Owner). A pending invitation is arranged.
  { key: 'POST /projects/:id/invitations', path: '/projects/20/invitations', body: { email: 'matrix@example.org', access_level: 30 }, expect: [401, 403, 403, 403, 201, 201, 403, 201, 403, S] },
  { key: 'POST /projects/:id/invitations', path: '/projects/21/invitations', body: { email: 'matrix@example.org', access_level: 30 }, expect: [401, 403, 403, 403, 201, 201, 404, 201, 404, S] },
  { key: 'GET /projects/:id/invitations', path: '/projects/20/invitations', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/invitations', path: '/projects/21/invitations', expect: [401, 200, 200, 200, 200, 200, 404, 200, 404, 200] },
  { key: 'PUT /projects/:id/invitations/:email', path: '/projects/20/invitations/pending@example.org', arrange: (sim) => void sim.db.tables.member_invitations.insert({ source_type: 'project', source_id: 20, invite_email: 'pending@example.org', invite_token: 'a'.repeat(64), access_level: 30, expires_at: null, created_by_id: 5, created_at: '2021-03-01T10:00:00.000Z', updated_at: '2021-03-01T10:00:00.000Z' }), body: { access_level: 20 }, expect: [401, 403, 403, 403, 200, 200, 403, 200, 403, S] },
  { key: 'DELETE /projects/:id/invitations/:email', path: '/projects/20/invitations/pending@example.org', arrange: (sim) => void sim.db.tables.member_invitations.insert({ source_type: 'project', source_id: 20, invite_email: 'pending@example.org', invite_token: 'a'.repeat(64), access_level: 30, expires_at: null, created_by_id: 5, created_at: '2021-03-01T10:00:00.000Z', updated_at: '2021-03-01T10:00:00.000Z' }), expect: [401, 403, 403, 403, 204, 204, 403, 204, 403, S] },
  { key: 'POST /groups/:id/invitations', path: '/groups/10/invitations', body: { email: 'matrix@example.org', access_level: 30 }, expect: [401, 403, 403, 403, 403, 201, 403, 201, 403, S] },
  { key: 'GET /groups/:id/invitations', path: '/groups/10/invitations', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /groups/:id/invitations', path: '/groups/11/invitations', expect: [401, 200, 200, 200, 200, 200, 404, 200, 404, 200] },
  { key: 'PUT /groups/:id/invitations/:email', path: '/groups/10/invitations/pending@example.org', arrange: (sim) => void sim.db.tables.member_invitations.insert({ source_type: 'group', source_id: 10, invite_email: 'pending@example.org', invite_token: 'a'.repeat(64), access_level: 30, expires_at: null, created_by_id: 6, created_at: '2021-03-01T10:00:00.000Z', updated_at: '2021-03-01T10:00:00.000Z' }), body: { access_level: 20 }, expect: [401, 403, 403, 403, 403, 200, 403, 200, 403, S] },
  { key: 'DELETE /groups/:id/invitations/:email', path: '/groups/10/invitations/pending@example.org', arrange: (sim) => void sim.db.tables.member_invitations.insert({ source_type: 'group', source_id: 10, invite_email: 'pending@example.org', invite_token: 'a'.repeat(64), access_level: 30, expires_at: null, created_by_id: 6, created_at: '2021-03-01T10:00:00.000Z', updated_at: '2021-03-01T10:00:00.000Z' }), expect: [401, 403, 403, 403, 403, 204, 403, 204, 403, S] },
  { key: 'GET /projects/:id/access_tokens', path: '/projects/20/access_tokens', expect: [401, 401, 401, 401, 200, 200, 401, 200, 401, 401] },
  { key: 'GET /projects/:id/access_tokens', path: '/projects/21/access_tokens', expect: [401, 401, 401, 401, 200, 200, 404, 200, 404, 401] },
  { key: 'POST /projects/:id/access_tokens', path: '/projects/20/access_tokens', body: { name: 'matrix', scopes: ['api'] }, badRequest: { message: '400 Bad request - User does not have permission to create project Access Token' }, expect: [401, 400, 400, 400, 201, 201, 400, 201, 400, S] },
  {
    key: 'DELETE /projects/:id/access_tokens/:token_id',
    path: '/projects/20/access_tokens/17',
    badRequest: (caller: Caller) => ({ message: `400 Bad request - ${CALLER_NAMES[caller]} cannot delete Website deploy bot` }),
    expect: [401, 400, 400, 400, 204, 204, 400, 204, 400, S],
  },
  // [/members]
  // --- system hooks (system-hooks area, issue 37): administrators only (gitlab: lib/api/system_hooks.rb) ---
  { key: 'GET /hooks', path: '/hooks', expect: [401, 403, 403, 403, 403, 403, 403, 200, 403, 403] },
  { key: 'POST /hooks', path: '/hooks', body: { url: 'http://hooks.example.com/matrix' }, expect: [401, 403, 403, 403, 403, 403, 403, 201, 403, S] },
  { key: 'GET /hooks/:id', path: '/hooks/980', arrange: systemHook, expect: [401, 403, 403, 403, 403, 403, 403, 200, 403, 403] },
  { key: 'POST /hooks/:id', path: '/hooks/980', arrange: systemHook, expect: [401, 403, 403, 403, 403, 403, 403, 201, 403, S] },
  { key: 'DELETE /hooks/:id', path: '/hooks/980', arrange: systemHook, expect: [401, 403, 403, 403, 403, 403, 403, 204, 403, S] },
  // --- broadcast messages (broadcast-messages area, issue 37): anyone reads, administrators write (gitlab: lib/api/broadcast_messages.rb) ---
  // Markdown (issue 37 item 8): anyone (13.12 asks no authentication)
  { key: 'POST /markdown', path: '/markdown', body: { text: 'Hi #1' }, expect: [201, 201, 201, 201, 201, 201, 201, 201, 201, S] },
  // search (issue 37 item 8): a signed-in user; a readable group or project
  { key: 'GET /search', path: '/search?scope=issues&search=footer', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /groups/:id/search', path: '/groups/11/search?scope=issues&search=x', expect: [401, 200, 200, 200, 200, 200, 404, 200, 404, 200] },
  { key: 'GET /projects/:id/search', path: '/projects/21/search?scope=issues&search=x', expect: [401, 200, 200, 200, 200, 200, 404, 200, 404, 200] },
  // The other paths of `GET /groups/:id/(-/)search` and `/projects/:id/(-/)search` (reach)
  { key: 'GET /groups/:id/-/search', path: '/groups/11/-/search?scope=issues&search=x', expect: [401, 200, 200, 200, 200, 200, 404, 200, 404, 200] },
  { key: 'GET /projects/:id/-/search', path: '/projects/21/-/search?scope=issues&search=x', expect: [401, 200, 200, 200, 200, 200, 404, 200, 404, 200] },
  { key: 'GET /user/activities', path: '/user/activities', expect: [401, 403, 403, 403, 403, 403, 403, 200, 403, 403] },
  // user status (issue 37 item 6)
  { key: 'GET /user/status', path: '/user/status', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'PUT /user/status', path: '/user/status', body: { message: 'Busy' }, expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, S] },
  { key: 'GET /users/:user_id/status', path: '/users/4/status', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  // events (issue 37 item 6): a user's own, a user's, a project's (readable project)
  { key: 'GET /events', path: '/events', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /users/:id/events', path: '/users/4/events', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/events', path: '/projects/20/events', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/events', path: '/projects/21/events', expect: [404, 200, 200, 200, 200, 200, 404, 200, 404, 200] },
  { key: 'GET /broadcast_messages', path: '/broadcast_messages', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /broadcast_messages/:id', path: '/broadcast_messages/970', arrange: broadcastMessage, expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'POST /broadcast_messages', path: '/broadcast_messages', body: { message: 'matrix' }, expect: [401, 403, 403, 403, 403, 403, 403, 201, 403, S] },
  { key: 'PUT /broadcast_messages/:id', path: '/broadcast_messages/970', arrange: broadcastMessage, body: { message: 'matrix' }, expect: [401, 403, 403, 403, 403, 403, 403, 200, 403, S] },
  { key: 'DELETE /broadcast_messages/:id', path: '/broadcast_messages/970', arrange: broadcastMessage, expect: [401, 403, 403, 403, 403, 403, 403, 200, 403, S] },
  // --- namespaces (namespaces area, issue 37): find_namespace! (read_namespace: oneself, a group member, an administrator) ---
  { key: 'GET /namespaces/:id', path: '/namespaces/10', notFound: { message: '404 Namespace Not Found' }, expect: [401, 200, 200, 200, 200, 200, 404, 200, 404, 200] },
  { key: 'GET /namespaces/:namespace/exists', path: '/namespaces/acme/exists', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  // --- SSH keys (user-keys area, issue 37): /user/keys are the caller's, /users/:user_id/keys anyone's to read, the rest administrators' (gitlab: lib/api/users.rb, keys.rb) ---
  { key: 'GET /user/keys', path: '/user/keys', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /user/keys/:key_id', path: '/user/keys/960', arrange: sshKey, notFound: { message: '404 Key Not Found' }, expect: [401, 404, 404, 200, 404, 404, 404, 404, 404, 200] },
  { key: 'POST /user/keys', path: '/user/keys', body: { title: 'matrix', key: 'ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBE0JSZO0mPmmMBtc1+zYG+JQVx3KlAaqA7gp0K4iKerMCu+vLemxi7ChVhPAFcVIWNEY1BgyLhFw53dvsJkIEgg= user@acme' }, expect: [401, 201, 201, 201, 201, 201, 201, 201, 201, S] },
  { key: 'DELETE /user/keys/:key_id', path: '/user/keys/960', arrange: sshKey, notFound: { message: '404 Key Not Found' }, expect: [401, 404, 404, 204, 404, 404, 404, 404, 404, S] },
  { key: 'GET /users/:user_id/keys', path: '/users/4/keys', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'POST /users/:id/keys', path: '/users/4/keys', body: { title: 'matrix', key: 'ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBE0JSZO0mPmmMBtc1+zYG+JQVx3KlAaqA7gp0K4iKerMCu+vLemxi7ChVhPAFcVIWNEY1BgyLhFw53dvsJkIEgg= user@acme' }, expect: [401, 403, 403, 403, 403, 403, 403, 201, 403, S] },
  { key: 'DELETE /users/:id/keys/:key_id', path: '/users/4/keys/960', arrange: sshKey, expect: [401, 403, 403, 403, 403, 403, 403, 204, 403, S] },
  { key: 'GET /keys/:id', path: '/keys/35', expect: [401, 403, 403, 403, 403, 403, 403, 200, 403, 403] },
  { key: 'GET /keys', path: '/keys?fingerprint=SHA256:4CcbOWR3y9VdColaHMMfPc8Scz7ucxpg04hy2mocuPs', expect: [401, 403, 403, 403, 403, 403, 403, 200, 403, 403] },
  // --- impersonation tokens (users area, issue 37): administrators only (gitlab: lib/api/users.rb) ---
  { key: 'GET /users/:user_id/impersonation_tokens', path: '/users/4/impersonation_tokens', expect: [401, 403, 403, 403, 403, 403, 403, 200, 403, 403] },
  { key: 'POST /users/:user_id/impersonation_tokens', path: '/users/4/impersonation_tokens', body: { name: 'matrix', scopes: ['api'] }, expect: [401, 403, 403, 403, 403, 403, 403, 201, 403, S] },
  { key: 'GET /users/:user_id/impersonation_tokens/:impersonation_token_id', path: '/users/4/impersonation_tokens/950', arrange: impersonationToken, expect: [401, 403, 403, 403, 403, 403, 403, 200, 403, 403] },
  { key: 'DELETE /users/:user_id/impersonation_tokens/:impersonation_token_id', path: '/users/4/impersonation_tokens/950', arrange: impersonationToken, expect: [401, 403, 403, 403, 403, 403, 403, 204, 403, S] },
  // Personal access tokens (personal_access_tokens.rb, 13.3+): anyone signed in lists their own; the
  // owner (devon) or an administrator revokes one, anyone else gets 400 (RevokeService).
  { key: 'GET /personal_access_tokens', path: '/personal_access_tokens', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'DELETE /personal_access_tokens/:id', path: '/personal_access_tokens/951', arrange: devonToken, badRequest: { message: '400 Bad request' }, expect: [401, 400, 400, 204, 400, 400, 400, 204, 400, S] },
  // The caller's preferences and counts (users.rb `put "preferences"`, user_counts.rb): anyone signed in.
  { key: 'PUT /user/preferences', path: '/user/preferences', body: { view_diffs_file_by_file: true }, expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, S] },
  { key: 'GET /user_counts', path: '/user_counts', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  // OAuth applications (applications.rb): administrators only.
  { key: 'GET /applications', path: '/applications', expect: [401, 403, 403, 403, 403, 403, 403, 200, 403, 403] },
  { key: 'POST /applications', path: '/applications', body: { name: 'matrix', redirect_uri: 'https://matrix.example/cb', scopes: 'api' }, expect: [401, 403, 403, 403, 403, 403, 403, 201, 403, S] },
  { key: 'DELETE /applications/:id', path: '/applications/1', expect: [401, 403, 403, 403, 403, 403, 403, 204, 403, S] },
  // --- application settings (application-settings area, issue 37 item 7): administrators only, before the params (gitlab: lib/api/settings.rb) ---
  { key: 'GET /application/settings', path: '/application/settings', expect: [401, 403, 403, 403, 403, 403, 403, 200, 403, 403] },
  { key: 'PUT /application/settings', path: '/application/settings', body: { signup_enabled: false }, expect: [401, 403, 403, 403, 403, 403, 403, 200, 403, S] },
  // --- GPG keys (user-gpg-keys area, issue 37 item 3): /user/gpg_keys the caller's, /users/:id/gpg_keys anyone's to read, the writes administrators' (gitlab: lib/api/users.rb) ---
  { key: 'GET /user/gpg_keys', path: '/user/gpg_keys', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /user/gpg_keys/:key_id', path: '/user/gpg_keys/990', arrange: gpgKey, notFound: { message: '404 GPG Key Not Found' }, expect: [401, 404, 404, 200, 404, 404, 404, 404, 404, 200] },
  { key: 'POST /user/gpg_keys', path: '/user/gpg_keys', body: { key: GPG_DEVON }, expect: [401, 201, 201, 201, 201, 201, 201, 201, 201, S] },
  { key: 'POST /user/gpg_keys/:key_id/revoke', path: '/user/gpg_keys/990/revoke', arrange: gpgKey, ok: '202', notFound: { message: '404 GPG Key Not Found' }, expect: [401, 404, 404, 202, 404, 404, 404, 404, 404, S] },
  { key: 'DELETE /user/gpg_keys/:key_id', path: '/user/gpg_keys/990', arrange: gpgKey, notFound: { message: '404 GPG Key Not Found' }, expect: [401, 404, 404, 204, 404, 404, 404, 404, 404, S] },
  { key: 'GET /users/:id/gpg_keys', path: '/users/4/gpg_keys', arrange: gpgKey, expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /users/:id/gpg_keys/:key_id', path: '/users/4/gpg_keys/990', arrange: gpgKey, expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'POST /users/:id/gpg_keys', path: '/users/4/gpg_keys', body: { key: GPG_DEVON }, expect: [401, 403, 403, 403, 403, 403, 403, 201, 403, S] },
  { key: 'POST /users/:id/gpg_keys/:key_id/revoke', path: '/users/4/gpg_keys/990/revoke', arrange: gpgKey, ok: '202', expect: [401, 403, 403, 403, 403, 403, 403, 202, 403, S] },
  { key: 'DELETE /users/:id/gpg_keys/:key_id', path: '/users/4/gpg_keys/990', arrange: gpgKey, expect: [401, 403, 403, 403, 403, 403, 403, 204, 403, S] },
  // --- emails (user-emails area, issue 37 item 3): /user/emails the caller's, /users/:id/emails administrators' (gitlab: lib/api/users.rb) ---
  { key: 'GET /user/emails', path: '/user/emails', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /user/emails/:email_id', path: '/user/emails/995', arrange: secondaryEmail, notFound: { message: '404 Email Not Found' }, expect: [401, 404, 404, 200, 404, 404, 404, 404, 404, 200] },
  { key: 'POST /user/emails', path: '/user/emails', body: { email: 'matrix@example.net' }, expect: [401, 201, 201, 201, 201, 201, 201, 201, 201, S] },
  { key: 'DELETE /user/emails/:email_id', path: '/user/emails/995', arrange: secondaryEmail, notFound: { message: '404 Email Not Found' }, expect: [401, 404, 404, 204, 404, 404, 404, 404, 404, S] },
  { key: 'GET /users/:id/emails', path: '/users/4/emails', expect: [401, 403, 403, 403, 403, 403, 403, 200, 403, 403] },
  { key: 'POST /users/:id/emails', path: '/users/4/emails', body: { email: 'matrix@example.net' }, expect: [401, 403, 403, 403, 403, 403, 403, 201, 403, S] },
  { key: 'DELETE /users/:id/emails/:email_id', path: '/users/4/emails/995', arrange: secondaryEmail, expect: [401, 403, 403, 403, 403, 403, 403, 204, 403, S] },
  // --- identities (users area, issue 37 item 4): administrators only (gitlab: lib/api/users.rb) ---
  { key: 'DELETE /users/:id/identities/:provider', path: '/users/4/identities/ldapmain', arrange: (sim: Simulator) => { sim.db.tables.users.update(4, { identities: [{ provider: 'ldapmain', extern_uid: 'uid=devon' }] }) }, expect: [401, 403, 403, 403, 403, 403, 403, 204, 403, S] },
  // --- custom attributes (custom-attributes area, issue 37 item 7): the owner found first, then administrators only (gitlab: lib/api/custom_attributes_endpoints.rb) ---
  { key: 'GET /projects/:id/custom_attributes', path: '/projects/21/custom_attributes', notFound: { message: '404 Project Not Found' }, expect: [401, 403, 403, 403, 403, 403, 404, 200, 404, 403] },
  { key: 'GET /projects/:id/custom_attributes/:key', path: '/projects/21/custom_attributes/matrix', arrange: (sim: Simulator) => { sim.db.tables.custom_attributes.insert({ owner_type: 'project', owner_id: 21, key: 'matrix', value: 'v', created_at: '2021-03-01T10:00:00.000Z', updated_at: '2021-03-01T10:00:00.000Z' }) }, notFound: { message: '404 Project Not Found' }, expect: [401, 403, 403, 403, 403, 403, 404, 200, 404, 403] },
  { key: 'PUT /projects/:id/custom_attributes/:key', path: '/projects/21/custom_attributes/matrix', body: { value: 'v2' }, notFound: { message: '404 Project Not Found' }, expect: [401, 403, 403, 403, 403, 403, 404, 200, 404, S] },
  { key: 'DELETE /projects/:id/custom_attributes/:key', path: '/projects/21/custom_attributes/matrix', arrange: (sim: Simulator) => { sim.db.tables.custom_attributes.insert({ owner_type: 'project', owner_id: 21, key: 'matrix', value: 'v', created_at: '2021-03-01T10:00:00.000Z', updated_at: '2021-03-01T10:00:00.000Z' }) }, notFound: { message: '404 Project Not Found' }, expect: [401, 403, 403, 403, 403, 403, 404, 204, 404, S] },
  { key: 'GET /groups/:id/custom_attributes', path: '/groups/11/custom_attributes', notFound: { message: '404 Group Not Found' }, expect: [401, 403, 403, 403, 403, 403, 404, 200, 404, 403] },
  { key: 'GET /groups/:id/custom_attributes/:key', path: '/groups/11/custom_attributes/matrix', arrange: (sim: Simulator) => { sim.db.tables.custom_attributes.insert({ owner_type: 'group', owner_id: 11, key: 'matrix', value: 'v', created_at: '2021-03-01T10:00:00.000Z', updated_at: '2021-03-01T10:00:00.000Z' }) }, notFound: { message: '404 Group Not Found' }, expect: [401, 403, 403, 403, 403, 403, 404, 200, 404, 403] },
  { key: 'PUT /groups/:id/custom_attributes/:key', path: '/groups/11/custom_attributes/matrix', body: { value: 'v2' }, notFound: { message: '404 Group Not Found' }, expect: [401, 403, 403, 403, 403, 403, 404, 200, 404, S] },
  { key: 'DELETE /groups/:id/custom_attributes/:key', path: '/groups/11/custom_attributes/matrix', arrange: (sim: Simulator) => { sim.db.tables.custom_attributes.insert({ owner_type: 'group', owner_id: 11, key: 'matrix', value: 'v', created_at: '2021-03-01T10:00:00.000Z', updated_at: '2021-03-01T10:00:00.000Z' }) }, notFound: { message: '404 Group Not Found' }, expect: [401, 403, 403, 403, 403, 403, 404, 204, 404, S] },
  { key: 'GET /users/:id/custom_attributes', path: '/users/4/custom_attributes', expect: [401, 403, 403, 403, 403, 403, 403, 200, 403, 403] },
  { key: 'GET /users/:id/custom_attributes/:key', path: '/users/4/custom_attributes/matrix', arrange: (sim: Simulator) => { sim.db.tables.custom_attributes.insert({ owner_type: 'user', owner_id: 4, key: 'matrix', value: 'v', created_at: '2021-03-01T10:00:00.000Z', updated_at: '2021-03-01T10:00:00.000Z' }) }, expect: [401, 403, 403, 403, 403, 403, 403, 200, 403, 403] },
  { key: 'PUT /users/:id/custom_attributes/:key', path: '/users/4/custom_attributes/matrix', body: { value: 'v2' }, expect: [401, 403, 403, 403, 403, 403, 403, 200, 403, S] },
  { key: 'DELETE /users/:id/custom_attributes/:key', path: '/users/4/custom_attributes/matrix', arrange: (sim: Simulator) => { sim.db.tables.custom_attributes.insert({ owner_type: 'user', owner_id: 4, key: 'matrix', value: 'v', created_at: '2021-03-01T10:00:00.000Z', updated_at: '2021-03-01T10:00:00.000Z' }) }, expect: [401, 403, 403, 403, 403, 403, 403, 204, 403, S] },
  // [/identity2]
  // --- deploy keys (deploy-keys area, issue 37): authorize_admin_project, Maintainer+ (gitlab: lib/api/deploy_keys.rb) ---
  { key: 'GET /deploy_keys', path: '/deploy_keys', expect: [401, 403, 403, 403, 403, 403, 403, 200, 403, 403] },
  { key: 'GET /projects/:id/deploy_keys', path: '/projects/21/deploy_keys', expect: [401, 403, 403, 403, 200, 200, 404, 200, 404, 403] },
  { key: 'GET /projects/:id/deploy_keys/:key_id', path: '/projects/21/deploy_keys/35', expect: [401, 403, 403, 403, 200, 200, 404, 200, 404, 403] },
  { key: 'POST /projects/:id/deploy_keys', path: '/projects/21/deploy_keys', body: { title: 'matrix', key: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAILNigsw2fh76tOaYwARUKw5qhIhHKgvLpt8qmRxpXM7L ci@acme' }, expect: [401, 403, 403, 403, 201, 201, 404, 201, 404, S] },
  { key: 'PUT /projects/:id/deploy_keys/:key_id', path: '/projects/21/deploy_keys/35', body: { title: 'matrix' }, expect: [401, 403, 403, 403, 200, 200, 404, 200, 404, S] },
  { key: 'POST /projects/:id/deploy_keys/:key_id/enable', path: '/projects/20/deploy_keys/35/enable', notFound: { message: '404 Deploy Key Not Found' }, expect: [401, 403, 403, 403, 201, 201, 403, 404, 403, S] },
  { key: 'DELETE /projects/:id/deploy_keys/:key_id', path: '/projects/21/deploy_keys/35', expect: [401, 403, 403, 403, 204, 204, 404, 204, 404, S] },
  // --- deploy tokens (deploy-tokens area, issue 37): a project's are Maintainer+, a group's Maintainer+ to read and Owner to write (gitlab: lib/api/deploy_tokens.rb, project_policy.rb, group_policy.rb) ---
  { key: 'GET /deploy_tokens', path: '/deploy_tokens', expect: [401, 403, 403, 403, 403, 403, 403, 200, 403, 403] },
  { key: 'GET /projects/:id/deploy_tokens', path: '/projects/21/deploy_tokens', expect: [401, 403, 403, 403, 200, 200, 404, 200, 404, 403] },
  { key: 'POST /projects/:id/deploy_tokens', path: '/projects/21/deploy_tokens', body: { name: 'matrix', scopes: ['read_repository'] }, expect: [401, 403, 403, 403, 201, 201, 404, 201, 404, S] },
  { key: 'GET /projects/:id/deploy_tokens/:token_id', path: '/projects/21/deploy_tokens/32', expect: [401, 403, 403, 403, 200, 200, 404, 200, 404, 403] },
  { key: 'DELETE /projects/:id/deploy_tokens/:token_id', path: '/projects/21/deploy_tokens/32', expect: [401, 403, 403, 403, 204, 204, 404, 204, 404, S] },
  { key: 'GET /groups/:id/deploy_tokens', path: '/groups/10/deploy_tokens', expect: [401, 403, 403, 403, 200, 200, 403, 200, 403, 403] },
  { key: 'POST /groups/:id/deploy_tokens', path: '/groups/10/deploy_tokens', body: { name: 'matrix', scopes: ['read_registry'] }, expect: [401, 403, 403, 403, 403, 201, 403, 201, 403, S] },
  { key: 'GET /groups/:id/deploy_tokens/:token_id', path: '/groups/10/deploy_tokens/31', expect: [401, 403, 403, 403, 200, 200, 403, 200, 403, 403] },
  { key: 'DELETE /groups/:id/deploy_tokens/:token_id', path: '/groups/10/deploy_tokens/31', expect: [401, 403, 403, 403, 403, 204, 403, 204, 403, S] },
  // --- to-dos and notification settings (todos, notification-settings areas) ---
  // To-dos: every call is the caller's own (gitlab-behaviour.md §8; gitlab: lib/api/todos.rb).
  // 601 is devon's: anyone else gets ActiveRecord's 404. devon already has pending to-dos on issue
  // #1 of projects 20 (601) and 21 (606), so marking it again is 304 for him.
  { key: 'GET /todos', path: '/todos', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'POST /todos/:id/mark_as_done', path: '/todos/601/mark_as_done', expect: [401, 404, 404, 201, 404, 404, 404, 404, 404, S], notFound: { message: '404 Not found' } },
  { key: 'POST /todos/mark_as_done', path: '/todos/mark_as_done', expect: [401, 204, 204, 204, 204, 204, 204, 204, 204, S] },
  { key: 'POST /projects/:id/issues/:issue_iid/todo', path: '/projects/20/issues/1/todo', expect: [401, 201, 201, 304, 201, 201, 201, 201, 201, S] },
  { key: 'POST /projects/:id/issues/:issue_iid/todo', path: '/projects/21/issues/1/todo', expect: [401, 201, 201, 304, 201, 201, 404, 201, 404, S] },
  // Notification settings: the caller's own; a group or project only needs to be readable
  // (gitlab-behaviour.md §10; gitlab: lib/api/notification_settings.rb `find_source`).
  { key: 'GET /notification_settings', path: '/notification_settings', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'PUT /notification_settings', path: '/notification_settings', body: { level: 'watch' }, expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, S] },
  { key: 'GET /groups/:id/notification_settings', path: '/groups/10/notification_settings', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /groups/:id/notification_settings', path: '/groups/11/notification_settings', expect: [401, 200, 200, 200, 200, 200, 404, 200, 404, 200] },
  { key: 'PUT /groups/:id/notification_settings', path: '/groups/10/notification_settings', body: { level: 'watch' }, expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, S] },
  { key: 'PUT /groups/:id/notification_settings', path: '/groups/11/notification_settings', body: { level: 'watch' }, expect: [401, 200, 200, 200, 200, 200, 404, 200, 404, S] },
  { key: 'GET /projects/:id/notification_settings', path: '/projects/20/notification_settings', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/notification_settings', path: '/projects/21/notification_settings', expect: [401, 200, 200, 200, 200, 200, 404, 200, 404, 200] },
  { key: 'PUT /projects/:id/notification_settings', path: '/projects/20/notification_settings', body: { level: 'watch' }, expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, S] },
  { key: 'PUT /projects/:id/notification_settings', path: '/projects/21/notification_settings', body: { level: 'watch' }, expect: [401, 200, 200, 200, 200, 200, 404, 200, 404, S] },
  // --- end to-dos and notification settings ---

  // --- runners (issue 7) ---
  // Runners (gitlab: lib/api/ci/runners.rb, lib/api/ci/runner.rb; gitlab-behaviour.md §2): instance
  // runners readable by any user; others need an owned runner (Maintainer+ of its project or group)
  // or an administrator. Fixtures: runner 1 instance, 5 website only, 6 website + handbook; max and
  // olive maintain website and handbook through acme; the group list needs Owner (13.x admin_group).
  // The runner-token routes authenticate by `token` alone: every caller gets the same answer.
  { key: 'GET /runners', path: '/runners', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /runners/all', path: '/runners/all', expect: [401, 403, 403, 403, 403, 403, 403, 200, 403, 403] },
  { key: 'GET /runners/:id', path: '/runners/5', expect: [401, 403, 403, 403, 200, 200, 403, 200, 403, 403], forbidden: NO_ACCESS },
  { key: 'GET /runners/:id', path: '/runners/1', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'PUT /runners/:id', path: '/runners/5', body: { description: 'matrix' }, expect: [401, 403, 403, 403, 200, 200, 403, 200, 403, S], forbidden: NO_ACCESS },
  { key: 'DELETE /runners/:id', path: '/runners/5', expect: [401, 403, 403, 403, 204, 204, 403, 204, 403, S], forbidden: NO_ACCESS },
  { key: 'DELETE /runners/:id', path: '/runners/6', expect: [401, 403, 403, 403, 403, 403, 403, 204, 403, S], forbidden: { message: '403 Forbidden - Runner associated with more than one project' } },
  { key: 'GET /runners/:id/jobs', path: '/runners/5/jobs', expect: [401, 403, 403, 403, 200, 200, 403, 200, 403, 403], forbidden: NO_ACCESS },
  // A group runner (3, acme): a Maintainer reads it (the spec), only an Owner of its group changes,
  // deletes or lists its jobs (13.x `User#ci_owned_runners`; issue 23 item 1).
  { key: 'GET /runners/:id', path: '/runners/3', expect: [401, 403, 403, 403, 200, 200, 403, 200, 403, 403], forbidden: NO_ACCESS },
  { key: 'PUT /runners/:id', path: '/runners/3', body: { description: 'matrix' }, expect: [401, 403, 403, 403, 403, 200, 403, 200, 403, S], forbidden: NO_ACCESS },
  { key: 'DELETE /runners/:id', path: '/runners/3', expect: [401, 403, 403, 403, 403, 204, 403, 204, 403, S], forbidden: NO_ACCESS },
  { key: 'GET /runners/:id/jobs', path: '/runners/3/jobs', expect: [401, 403, 403, 403, 403, 200, 403, 200, 403, 403], forbidden: NO_ACCESS },
  { key: 'POST /runners', path: '/runners', body: { token: 'GR1348941WebsiteRunnerToken01' }, expect: [201, 201, 201, 201, 201, 201, 201, 201, 201, 201] },
  { key: 'DELETE /runners', path: '/runners', body: { token: 'fakelab-runner-7-token' }, expect: [204, 204, 204, 204, 204, 204, 204, 204, 204, 204] },
  { key: 'POST /runners/verify', path: '/runners/verify', body: { token: 'fakelab-runner-5-token' }, expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200], ok: '"200"' },
  // The runner's API for jobs (runner-jobs area; lib/api/ci/runner.rb): no user authentication, a
  // runner's or a job's own token decides, whatever user token comes along. Job 2005 runs (token
  // `matrix-job-token-000001`) on runner 5; runner 7 has nothing to pick.
  { key: 'POST /jobs/request', path: '/jobs/request', body: { token: 'fakelab-runner-7-token' }, expect: [204, 204, 204, 204, 204, 204, 204, 204, 204, 204] },
  { key: 'PUT /jobs/:id', path: '/jobs/2005', arrange: runningJob, body: { token: RUNNING_JOB_TOKEN, state: 'success' }, expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200], ok: '"200"' },
  { key: 'PATCH /jobs/:id/trace', path: '/jobs/2005/trace', arrange: runningJob, headers: { 'job-token': RUNNING_JOB_TOKEN, 'content-range': '0-6' }, body: { a: 1 }, expect: [202, 202, 202, 202, 202, 202, 202, 202, 202, 202], ok: '"60"' },
  { key: 'POST /jobs/:id/artifacts/authorize', path: `/jobs/2005/artifacts/authorize?token=${RUNNING_JOB_TOKEN}`, arrange: runningJob, expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200], ok: '{"TempPath":"/var/opt/gitlab/gitlab-rails/shared/artifacts/tmp/uploads","MaximumSize":104857600}' },
  { key: 'POST /jobs/:id/artifacts', path: `/jobs/2005/artifacts?token=${RUNNING_JOB_TOKEN}`, arrange: runningJob, multipart: artifactsZipForm, expect: [201, 201, 201, 201, 201, 201, 201, 201, 201, 201], ok: '"201"' },
  { key: 'GET /jobs/:id/artifacts', path: `/jobs/2005/artifacts?token=${RUNNING_JOB_TOKEN}`, arrange: (sim) => { runningJob(sim); jobArtifacts(sim) }, ok: 'binary', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/runners', path: '/projects/20/runners', expect: [401, 403, 403, 403, 200, 200, 403, 200, 403, 403] },
  { key: 'GET /projects/:id/runners', path: '/projects/21/runners', expect: [401, 403, 403, 403, 200, 200, 404, 200, 404, 403] },
  { key: 'POST /projects/:id/runners', path: '/projects/23/runners', body: { runner_id: 5 }, expect: [401, 403, 403, 403, 201, 201, 403, 201, 403, S] },
  { key: 'DELETE /projects/:id/runners/:runner_id', path: '/projects/20/runners/6', expect: [401, 403, 403, 403, 204, 204, 403, 204, 403, S] },
  { key: 'GET /groups/:id/runners', path: '/groups/10/runners', expect: [401, 403, 403, 403, 403, 200, 403, 200, 403, 403] },
  { key: 'GET /groups/:id/runners', path: '/groups/11/runners', expect: [401, 403, 403, 403, 403, 200, 404, 200, 404, 403] },
  // --- end runners ---
  // ---- issues area -------------------------------------------------------------------------------
  // Lists: the global list needs a user unless scope=all; group and project lists allow anonymous
  // callers on public data. Sub-resources of issue 400 (acme/website #1): reads allow anyone who can
  // read the project; time tracking writes need admin_issue (Reporter+); notes any signed-in reader;
  // user_agent_detail administrators only (ivy/tracker #1 has one). Metric images on the incident
  // ivy/tracker #4 (author max; gina guest, riley reporter, devon developer, max maintainer of
  // ivy/tracker; olive is no member of it): upload needs Reporter+ (`Not allowed!` otherwise), delete
  // Reporter+ or the author, and image 9999 does not exist.
  { key: 'GET /issues', path: '/issues', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /groups/:id/issues', path: '/groups/10/issues', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /groups/:id/issues', path: '/groups/11/issues', expect: [404, 200, 200, 200, 200, 200, 404, 200, 404, 200] },
  { key: 'GET /projects/:id/issues', path: '/projects/20/issues', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/issues', path: '/projects/21/issues', expect: [404, 200, 200, 200, 200, 200, 404, 200, 404, 200] },
  { key: 'POST /projects/:id/issues/:issue_iid/time_estimate', path: '/projects/20/issues/1/time_estimate', body: { duration: '1h' }, expect: [401, 403, 200, 200, 200, 200, 403, 200, 403, S] },
  { key: 'POST /projects/:id/issues/:issue_iid/reset_time_estimate', path: '/projects/20/issues/1/reset_time_estimate', expect: [401, 403, 200, 200, 200, 200, 403, 200, 403, S] },
  { key: 'POST /projects/:id/issues/:issue_iid/add_spent_time', path: '/projects/20/issues/1/add_spent_time', body: { duration: '1h' }, expect: [401, 403, 201, 201, 201, 201, 403, 201, 403, S] },
  { key: 'POST /projects/:id/issues/:issue_iid/reset_spent_time', path: '/projects/20/issues/1/reset_spent_time', expect: [401, 403, 200, 200, 200, 200, 403, 200, 403, S] },
  { key: 'GET /projects/:id/issues/:issue_iid/time_stats', path: '/projects/20/issues/1/time_stats', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/issues/:issue_iid/time_stats', path: '/projects/21/issues/1/time_stats', expect: [404, 200, 200, 200, 200, 200, 404, 200, 404, 200] },
  { key: 'POST /projects/:id/issues/:issue_iid/notes', path: '/projects/20/issues/1/notes', body: { body: 'matrix' }, expect: [401, 201, 201, 201, 201, 201, 201, 201, 201, S] },
  { key: 'POST /projects/:id/issues/:issue_iid/notes', path: '/projects/21/issues/1/notes', body: { body: 'matrix' }, expect: [401, 201, 201, 201, 201, 201, 404, 201, 404, S] },
  // `/promote` alone (higher tier, issue 23 item 10): who may promote (admin_issue and create_epic in
  // acme: Reporter+) gets 202 and no note; anyone else who may comment stores it as text (201).
  { key: 'POST /projects/:id/issues/:issue_iid/notes', path: '/projects/20/issues/1/notes', body: { body: '/promote' }, expect: [401, 201, 202, 202, 202, 202, 201, 202, 201, S] },
  { key: 'GET /projects/:id/issues/:issue_iid/participants', path: '/projects/20/issues/1/participants', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/issues/:issue_iid/related_merge_requests', path: '/projects/30/issues/1/related_merge_requests', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/issues/:issue_iid/closed_by', path: '/projects/30/issues/1/closed_by', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/issues/:issue_iid/user_agent_detail', path: '/projects/30/issues/1/user_agent_detail', expect: [401, 403, 403, 403, 403, 403, 403, 200, 403, 403] },
  {
    key: 'POST /projects/:id/issues/:issue_iid/metric_images',
    path: '/projects/30/issues/4/metric_images',
    multipart: () => {
      const form = new FormData()
      form.append('file', new File([new Uint8Array([137, 80, 78, 71])], 'graph.png', { type: 'image/png' }))
      return form
    },
    // root is no member of ivy/tracker: EE `~is_project_member` refuses even an administrator (issue 23 item 4).
    expect: [401, 403, 201, 201, 201, 403, 403, 403, 403, S],
    forbidden: { message: 'Not allowed!' },
  },
  { key: 'GET /projects/:id/issues/:issue_iid/metric_images', path: '/projects/30/issues/4/metric_images', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'DELETE /projects/:id/issues/:issue_iid/metric_images/:image_id', path: '/projects/30/issues/4/metric_images/9999', expect: [401, 403, 404, 404, 404, 403, 403, 403, 403, S], notFound: { message: 'Metric image not found' } },
  // ---- end issues area ----------------------------------------------------------------------------

  // ---- arrange-issues (issue 16 parts 1-3): single issues, issue writes, notes, award emoji ----------
  // Issue #1 of acme/website (20) is devon's, assigned to max; olive owns acme. Writes: create_issue =
  // anyone who reads the project; update_issue = Reporter+ or the author/assignee; destroy_issue =
  // owner; move = admin_issue in both projects (else 400); a participant is subscribed already
  // (304). Notes and awards: ivy/tracker (30, public) #1, note 1 is riley's, award 1 riley's; olive
  // is not a member there. Award emoji routes all need a user (award_emoji.rb `authenticate!`), and
  // only the awarder or an administrator removes one (others: 401, `unauthorized!`). Note routes
  // need a user too (notes.rb `authenticate!`).
  { key: 'GET /projects/:id/issues/:issue_iid', path: '/projects/20/issues/1', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/issues/:issue_iid', path: '/projects/21/issues/1', expect: [404, 200, 200, 200, 200, 200, 404, 200, 404, 200] },
  { key: 'GET /issues/:id', path: '/issues/400', expect: [401, 403, 403, 403, 403, 403, 403, 200, 403, 403] },
  { key: 'POST /projects/:id/issues', path: '/projects/20/issues', body: { title: 'matrix' }, expect: [401, 201, 201, 201, 201, 201, 201, 201, 201, S] },
  { key: 'POST /projects/:id/issues', path: '/projects/21/issues', body: { title: 'matrix' }, expect: [401, 201, 201, 201, 201, 201, 404, 201, 404, S] },
  { key: 'PUT /projects/:id/issues/:issue_iid', path: '/projects/20/issues/1', body: { title: 'matrix' }, expect: [401, 403, 200, 200, 200, 200, 403, 200, 403, S] },
  { key: 'DELETE /projects/:id/issues/:issue_iid', path: '/projects/20/issues/1', expect: [401, 403, 403, 403, 403, 204, 403, 204, 403, S] },
  {
    key: 'POST /projects/:id/issues/:issue_iid/move',
    path: '/projects/20/issues/1/move',
    body: { to_project_id: 23 },
    expect: [401, 400, 201, 201, 201, 201, 400, 201, 400, S],
    badRequest: { message: 'Cannot move issue due to insufficient permissions!' },
  },
  { key: 'POST /projects/:id/issues/:issue_iid/subscribe', path: '/projects/20/issues/1/subscribe', expect: [401, 201, 201, 304, 304, 201, 201, 201, 201, S] },
  { key: 'POST /projects/:id/issues/:issue_iid/unsubscribe', path: '/projects/20/issues/1/unsubscribe', expect: [401, 304, 304, 201, 201, 304, 304, 304, 304, S] },
  { key: 'GET /projects/:id/issues/:issue_iid/notes', path: '/projects/20/issues/1/notes', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/issues/:issue_iid/notes', path: '/projects/21/issues/1/notes', expect: [401, 200, 200, 200, 200, 200, 404, 200, 404, 200] },
  // acme/website #4 (issue 403) is confidential (max's): hidden from guests and non-members, and the
  // note routes look it up through IssuesFinder's `find_by!`, so 404 Not found (issue 23 item 2).
  { key: 'GET /projects/:id/issues/:issue_iid/notes', path: '/projects/20/issues/4/notes', expect: [401, 404, 200, 200, 200, 200, 404, 200, 404, 200], notFound: { message: '404 Not found' } },
  { key: 'POST /projects/:id/issues/:issue_iid/notes', path: '/projects/20/issues/4/notes', body: { body: 'matrix' }, expect: [401, 404, 201, 201, 201, 201, 404, 201, 404, S], notFound: { message: '404 Not found' } },
  { key: 'GET /projects/:id/issues/:issue_iid/notes/:note_id', path: '/projects/30/issues/1/notes/1', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'PUT /projects/:id/issues/:issue_iid/notes/:note_id', path: '/projects/30/issues/1/notes/1', body: { body: 'matrix' }, expect: [401, 403, 200, 403, 200, 403, 403, 200, 403, S] },
  { key: 'DELETE /projects/:id/issues/:issue_iid/notes/:note_id', path: '/projects/30/issues/1/notes/1', expect: [401, 403, 204, 403, 204, 403, 403, 204, 403, S] },
  { key: 'GET /projects/:id/issues/:issue_iid/award_emoji', path: '/projects/30/issues/1/award_emoji', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/issues/:issue_iid/award_emoji', path: '/projects/21/issues/1/award_emoji', expect: [401, 200, 200, 200, 200, 200, 404, 200, 404, 200] },
  { key: 'GET /projects/:id/issues/:issue_iid/award_emoji/:award_id', path: '/projects/30/issues/1/award_emoji/1', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'POST /projects/:id/issues/:issue_iid/award_emoji', path: '/projects/30/issues/1/award_emoji', body: { name: 'tada' }, expect: [401, 201, 201, 201, 201, 201, 201, 201, 201, S] },
  { key: 'DELETE /projects/:id/issues/:issue_iid/award_emoji/:award_id', path: '/projects/30/issues/1/award_emoji/1', expect: [401, 401, 204, 401, 401, 401, 401, 204, 401, S] },
  { key: 'GET /projects/:id/issues/:issue_iid/notes/:note_id/award_emoji', path: '/projects/30/issues/1/notes/1/award_emoji', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  // No award on a note in the default scenario: award 1 is the issue's, so the note's lookup misses.
  { key: 'GET /projects/:id/issues/:issue_iid/notes/:note_id/award_emoji/:award_id', path: '/projects/30/issues/1/notes/1/award_emoji/1', expect: [401, 404, 404, 404, 404, 404, 404, 404, 404, 404], notFound: { message: '404 Not found' } },
  { key: 'POST /projects/:id/issues/:issue_iid/notes/:note_id/award_emoji', path: '/projects/30/issues/1/notes/1/award_emoji', body: { name: 'tada' }, expect: [401, 201, 201, 201, 201, 201, 201, 201, 201, S] },
  { key: 'DELETE /projects/:id/issues/:issue_iid/notes/:note_id/award_emoji/:award_id', path: '/projects/30/issues/1/notes/1/award_emoji/1', expect: [401, 404, 404, 404, 404, 404, 404, 404, 404, S], notFound: { message: '404 Not found' } },
  // ---- end arrange-issues ---------------------------------------------------------------------------

  // Users: GET /user needs a user (401 anonymous); a public profile is readable by anyone.
  { key: 'GET /user', path: '/user', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /users/:id', path: '/users/2', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  // --- arrange-directory: user lookups and administrators' user writes (gitlab: lib/api/users.rb,
  // namespaces.rb, projects.rb `:id/users`) ---
  // GET /users: anonymous callers must name a username (403 otherwise). The writes check
  // `authenticated_as_admin!` in the endpoint: 403 for everyone but root (sudo acts as nora).
  // Nora (7) is blocked, updated or deleted; bianca (11) is unblocked.
  { key: 'GET /users', path: '/users', expect: [403, 200, 200, 200, 200, 200, 200, 200, 200, 200], forbidden: { message: '403 Forbidden - Not authorized to access /api/v4/users' } },
  { key: 'POST /users', path: '/users', body: { email: 'matrix@example.com', password: 'matrix-password', name: 'Matrix', username: 'matrix' }, expect: [401, 403, 403, 403, 403, 403, 403, 201, 403, S] },
  { key: 'PUT /users/:id', path: '/users/7', body: { bio: 'matrix' }, expect: [401, 403, 403, 403, 403, 403, 403, 200, 403, S] },
  { key: 'DELETE /users/:id', path: '/users/7', expect: [401, 403, 403, 403, 403, 403, 403, 204, 403, S] },
  { key: 'POST /users/:id/block', path: '/users/7/block', ok: 'true', expect: [401, 403, 403, 403, 403, 403, 403, 201, 403, S] },
  { key: 'POST /users/:id/unblock', path: '/users/11/unblock', ok: 'true', expect: [401, 403, 403, 403, 403, 403, 403, 201, 403, S] },
  { key: 'POST /users/:user_id/personal_access_tokens', path: '/users/4/personal_access_tokens', body: { name: 'matrix', scopes: ['api'] }, expect: [401, 403, 403, 403, 403, 403, 403, 201, 403, S] },
  // Following users (usersadm): any signed-in user may follow; the lists are public profiles' to read.
  { key: 'POST /users/:id/follow', path: '/users/14/follow', expect: [401, 201, 201, 201, 201, 201, 201, 201, 201, S] },
  { key: 'POST /users/:id/unfollow', path: '/users/14/unfollow', arrange: (sim) => { for (const id of [1, 2, 3, 4, 5, 6, 7]) sim.db.tables.user_follow_users.insert({ follower_id: id, followee_id: 14, created_at: '2021-03-01T00:00:00.000Z' }) }, expect: [401, 201, 201, 201, 201, 201, 201, 201, 201, S] },
  { key: 'GET /users/:id/followers', path: '/users/4/followers', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /users/:id/following', path: '/users/4/following', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  // Feature flags (usersadm): administrators only (features.rb `before { authenticated_as_admin! }`).
  { key: 'GET /features', path: '/features', expect: [401, 403, 403, 403, 403, 403, 403, 200, 403, 403] },
  { key: 'GET /features/definitions', path: '/features/definitions', expect: [401, 403, 403, 403, 403, 403, 403, 200, 403, 403] },
  { key: 'POST /features/:name', path: '/features/matrix_flag', body: { value: 'true' }, expect: [401, 403, 403, 403, 403, 403, 403, 201, 403, S] },
  { key: 'DELETE /features/:name', path: '/features/matrix_flag', expect: [401, 403, 403, 403, 403, 403, 403, 204, 403, S] },
  // User states (usersadm): administrators only; approve answers the service's own 403 text.
  { key: 'POST /users/:id/activate', path: '/users/13/activate', ok: 'true', expect: [401, 403, 403, 403, 403, 403, 403, 201, 403, S] },
  { key: 'POST /users/:id/deactivate', path: '/users/7/deactivate', ok: 'true', arrange: (sim) => void sim.db.tables.users.update(7, { last_activity_on: null, current_sign_in_at: null }), expect: [401, 403, 403, 403, 403, 403, 403, 201, 403, S] },
  { key: 'POST /users/:id/approve', path: '/users/11/approve', forbidden: { message: 'You are not allowed to approve a user' }, arrange: (sim) => void sim.db.tables.users.update(11, { state: 'blocked_pending_approval' }), expect: [401, 403, 403, 403, 403, 403, 403, 201, 403, S] },
  { key: 'GET /namespaces', path: '/namespaces', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/users', path: '/projects/20/users', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/users', path: '/projects/21/users', expect: [404, 200, 200, 200, 200, 200, 404, 200, 404, 200] },
  // --- end arrange-directory: users ---

  // --- Repository storage moves (auth branch): administrators only (authenticated_as_admin!, before
  // validation). No move exists in the default scenario, so reading one by id is 404 even for root.
  ...[['group', '/groups/10', 'group'], ['project', '/projects/20', 'project'], ['snippet', '/snippets/601', 'snippet']].flatMap(([kind, container]): Row[] => [
    { key: `GET /${kind}_repository_storage_moves`, path: `/${kind}_repository_storage_moves`, expect: [401, 403, 403, 403, 403, 403, 403, 200, 403, 403] },
    { key: `GET /${kind}_repository_storage_moves/:repository_storage_move_id`, path: `/${kind}_repository_storage_moves/1`, expect: [401, 403, 403, 403, 403, 403, 403, 404, 403, 403], notFound: { message: '404 Not found' } },
    { key: `POST /${kind}_repository_storage_moves`, path: `/${kind}_repository_storage_moves`, body: { source_storage_name: 'default' }, expect: [401, 403, 403, 403, 403, 403, 403, 202, 403, S] },
    { key: `GET ${container}/repository_storage_moves`.replace(/\/\d+\//, '/:id/'), path: `${container}/repository_storage_moves`, expect: [401, 403, 403, 403, 403, 403, 403, 200, 403, 403] },
    { key: `GET ${container}/repository_storage_moves/:repository_storage_move_id`.replace(/\/\d+\//, '/:id/'), path: `${container}/repository_storage_moves/1`, expect: [401, 403, 403, 403, 403, 403, 403, 404, 403, 403], notFound: { message: '404 Not found' } },
    { key: `POST ${container}/repository_storage_moves`.replace(/\/\d+\//, '/:id/'), path: `${container}/repository_storage_moves`, body: { destination_storage_name: 'storage-2' }, expect: [401, 403, 403, 403, 403, 403, 403, 201, 403, S] },
  ]),
  // --- end repository storage moves
  // --- Job token's job (gaps branch): GET /job answers only a CI job token's request (its job); every
  // other credential authenticates (authenticate!) and then finds no current job: 404 `Job`
  // (lib/api/jobs.rb 13.x `validate_current_authenticated_job`). Job tokens: test/contract/runners/job-token-job.contract.ts.
  { key: 'GET /job', path: '/job', expect: [401, 404, 404, 404, 404, 404, 404, 404, 404, 404], notFound: { message: '404 Job Not Found' } },
  // --- end job token's job
  // --- Pipelines and jobs (issue 25 item 3; gitlab: lib/api/ci/pipelines.rb, lib/api/jobs.rb 13.x,
  // app/policies/project_policy.rb, ci/pipeline_policy.rb, ci/build_policy.rb). Pipelines: GET open to
  // anonymous callers of a public project; read = `read_build` (Reporter+, or anyone with public
  // pipelines, the default); create/retry/cancel Developer+ on an unprotected ref (main is protected:
  // Maintainers); delete `owner_access`; variables Maintainer+ or the developer who started the
  // pipeline. Jobs: every route signed in (`authenticate!`); erase Maintainer+ or the job's developer.
  { key: 'GET /projects/:id/pipelines', path: '/projects/20/pipelines', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/pipelines', path: '/projects/21/pipelines', expect: [404, 200, 200, 200, 200, 200, 404, 200, 404, 200] },
  { key: 'POST /projects/:id/pipeline', path: '/projects/20/pipeline', body: { ref: 'feature/login' }, expect: [401, 403, 403, 201, 201, 201, 403, 201, 403, S] },
  { key: 'GET /projects/:id/pipelines/latest', path: '/projects/20/pipelines/latest', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/pipelines/:pipeline_id', path: '/projects/20/pipelines/1004', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/pipelines/:pipeline_id/jobs', path: '/projects/20/pipelines/1004/jobs', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  // pipelines.rb (13.12): bridges `read_build` on the project, test_report `read_build` on the pipeline.
  { key: 'GET /projects/:id/pipelines/:pipeline_id/bridges', path: '/projects/20/pipelines/1004/bridges', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/pipelines/:pipeline_id/bridges', path: '/projects/21/pipelines/1002/bridges', expect: [404, 200, 200, 200, 200, 200, 404, 200, 404, 200] },
  { key: 'GET /projects/:id/pipelines/:pipeline_id/test_report', path: '/projects/20/pipelines/1004/test_report', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/pipelines/:pipeline_id/test_report', path: '/projects/21/pipelines/1002/test_report', expect: [404, 200, 200, 200, 200, 200, 404, 200, 404, 200] },
  { key: 'GET /projects/:id/pipelines/:pipeline_id/variables', path: '/projects/20/pipelines/1004/variables', expect: [403, 403, 403, 200, 200, 200, 403, 200, 403, 200] },
  { key: 'DELETE /projects/:id/pipelines/:pipeline_id', path: '/projects/20/pipelines/1004', expect: [401, 403, 403, 403, 403, 204, 403, 204, 403, S] },
  { key: 'POST /projects/:id/pipelines/:pipeline_id/retry', path: '/projects/20/pipelines/1005/retry', expect: [401, 403, 403, 201, 201, 201, 403, 201, 403, S] },
  { key: 'POST /projects/:id/pipelines/:pipeline_id/cancel', path: '/projects/20/pipelines/1004/cancel', expect: [401, 403, 403, 200, 200, 200, 403, 200, 403, S] },
  { key: 'POST /projects/:id/pipelines/:pipeline_id/cancel', path: '/projects/20/pipelines/1001/cancel', expect: [401, 403, 403, 403, 200, 200, 403, 200, 403, S] },
  { key: 'GET /projects/:id/jobs', path: '/projects/20/jobs', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/jobs/:job_id', path: '/projects/20/jobs/2005', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/jobs/:job_id/trace', path: '/projects/20/jobs/2005/trace', ok: '$ make\nBuilding the site...\nDone.\n', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'POST /projects/:id/jobs/:job_id/cancel', path: '/projects/20/jobs/2007/cancel', expect: [401, 403, 403, 201, 201, 201, 403, 201, 403, S] },
  { key: 'POST /projects/:id/jobs/:job_id/retry', path: '/projects/20/jobs/2009/retry', expect: [401, 403, 403, 201, 201, 201, 403, 201, 403, S] },
  { key: 'POST /projects/:id/jobs/:job_id/erase', path: '/projects/20/jobs/2009/erase', expect: [401, 403, 403, 201, 201, 201, 403, 201, 403, S] },
  { key: 'POST /projects/:id/jobs/:job_id/erase', path: '/projects/20/jobs/2005/erase', expect: [401, 403, 403, 403, 201, 201, 403, 201, 403, S] },
  { key: 'POST /projects/:id/jobs/:job_id/play', path: '/projects/20/jobs/2013/play', expect: [401, 403, 403, 200, 200, 200, 403, 200, 403, S] },
  // Commit statuses (gitlab: lib/api/commit_statuses.rb 13.x): signed in (`authenticate!`); read =
  // `read_commit_status` (download_code's rule: any reader of a public project); post =
  // `create_commit_status` (Developer+), then `update_pipeline` on the commit's pipeline: feature/login's
  // tip has none (a new external one on feature/login), main's is 1003 on protected main (Maintainers).
  { key: 'GET /projects/:id/repository/commits/:sha/statuses', path: '/projects/20/repository/commits/fd7d40d21b67d3419c468f3cd80559f888c6ff31/statuses', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'POST /projects/:id/statuses/:sha', path: '/projects/20/statuses/69feb7e89cc3965598b7884388b8f943deee5e03', body: { state: 'success' }, expect: [401, 403, 403, 201, 201, 201, 403, 201, 403, S] },
  { key: 'POST /projects/:id/statuses/:sha', path: '/projects/20/statuses/fd7d40d21b67d3419c468f3cd80559f888c6ff31', body: { state: 'running', target_url: 'https://ci.example.com/1' }, expect: [401, 403, 403, 403, 201, 201, 403, 201, 403, S] },
  // --- end pipelines and jobs
  // Instance metrics (issue 36 item 7): administrators only, anonymous 401 (lib/api/sidekiq_metrics.rb
  // `authenticated_as_admin!`; lib/api/statistics.rb `authorize! :read_application_statistics`).
  ...['queue_metrics', 'process_metrics', 'job_stats', 'compound_metrics'].map((name): Row => (
    { key: `GET /sidekiq/${name}`, path: `/sidekiq/${name}`, expect: [401, 403, 403, 403, 403, 403, 403, 200, 403, 403] })),
  { key: 'GET /application/statistics', path: '/application/statistics', expect: [401, 403, 403, 403, 403, 403, 403, 200, 403, 403] },
  // CI lint (issue 36 item 4; lib/api/lint.rb 13.12): instance lint for anyone (sign-up enabled);
  // project GET `download_code` (20 is public), POST `create_pipeline` (Developer+).
  { key: 'POST /ci/lint', path: '/ci/lint', body: { content: 'a:\n  script: x\n' }, expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, S] },
  { key: 'GET /projects/:id/ci/lint', path: '/projects/20/ci/lint', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'POST /projects/:id/ci/lint', path: '/projects/20/ci/lint', body: { content: 'a:\n  script: x\n' }, expect: [403, 403, 403, 200, 200, 200, 403, 200, 403, S] },
  // Instance CI variables (issue 36 item 1; lib/api/admin/ci/variables.rb): administrators only.
  { key: 'GET /admin/ci/variables', path: '/admin/ci/variables', expect: [401, 403, 403, 403, 403, 403, 403, 200, 403, 403] },
  { key: 'GET /admin/ci/variables/:key', path: '/admin/ci/variables/NONE', expect: [401, 403, 403, 403, 403, 403, 403, 404, 403, 403], notFound: { message: '404 InstanceVariable Not Found' } },
  { key: 'POST /admin/ci/variables', path: '/admin/ci/variables', body: { key: 'AUTHZ', value: 'v' }, expect: [401, 403, 403, 403, 403, 403, 403, 201, 403, S] },
  { key: 'PUT /admin/ci/variables/:key', path: '/admin/ci/variables/NONE', body: { value: 'v' }, expect: [401, 403, 403, 403, 403, 403, 403, 404, 403, S], notFound: { message: '404 InstanceVariable Not Found' } },
  { key: 'DELETE /admin/ci/variables/:key', path: '/admin/ci/variables/NONE', expect: [401, 403, 403, 403, 403, 403, 403, 404, 403, S], notFound: { message: '404 InstanceVariable Not Found' } },
  // Project and group CI variables (issue 36 item 1; lib/api/variables.rb, group_variables.rb): Maintainer+ (`admin_build`).
  { key: 'GET /projects/:id/variables', path: '/projects/20/variables', arrange: ciVariables, expect: [401, 403, 403, 403, 200, 200, 403, 200, 403, 403] },
  { key: 'GET /projects/:id/variables/:key', path: '/projects/20/variables/AUTHZ', arrange: ciVariables, expect: [401, 403, 403, 403, 200, 200, 403, 200, 403, 403] },
  { key: 'POST /projects/:id/variables', path: '/projects/20/variables', body: { key: 'NEW', value: 'v' }, expect: [401, 403, 403, 403, 201, 201, 403, 201, 403, S] },
  { key: 'PUT /projects/:id/variables/:key', path: '/projects/20/variables/AUTHZ', arrange: ciVariables, body: { value: 'w' }, expect: [401, 403, 403, 403, 200, 200, 403, 200, 403, S] },
  { key: 'DELETE /projects/:id/variables/:key', path: '/projects/20/variables/AUTHZ', arrange: ciVariables, expect: [401, 403, 403, 403, 204, 204, 403, 204, 403, S] },
  { key: 'GET /groups/:id/variables', path: '/groups/10/variables', arrange: ciVariables, expect: [401, 403, 403, 403, 200, 200, 403, 200, 403, 403] },
  { key: 'GET /groups/:id/variables/:key', path: '/groups/10/variables/AUTHZ', arrange: ciVariables, expect: [401, 403, 403, 403, 200, 200, 403, 200, 403, 403] },
  { key: 'POST /groups/:id/variables', path: '/groups/10/variables', body: { key: 'NEW', value: 'v' }, expect: [401, 403, 403, 403, 201, 201, 403, 201, 403, S] },
  { key: 'PUT /groups/:id/variables/:key', path: '/groups/10/variables/AUTHZ', arrange: ciVariables, body: { value: 'w' }, expect: [401, 403, 403, 403, 200, 200, 403, 200, 403, S] },
  { key: 'DELETE /groups/:id/variables/:key', path: '/groups/10/variables/AUTHZ', arrange: ciVariables, expect: [401, 403, 403, 403, 204, 204, 403, 204, 403, S] },
  // Pages domains (issue 34 item 7; lib/api/pages_domains.rb, pages.rb): read_pages/update_pages are
  // Maintainer+; the instance list and unpublishing are for administrators. Domain 1 www.acme.test (project 20).
  { key: 'GET /pages/domains', path: '/pages/domains', expect: [401, 403, 403, 403, 403, 403, 403, 200, 403, 403] },
  { key: 'GET /projects/:id/pages/domains', path: '/projects/20/pages/domains', expect: [401, 403, 403, 403, 200, 200, 403, 200, 403, 403] },
  { key: 'GET /projects/:id/pages/domains', path: '/projects/21/pages/domains', expect: [401, 403, 403, 403, 200, 200, 404, 200, 404, 403] },
  { key: 'GET /projects/:id/pages/domains/:domain', path: '/projects/20/pages/domains/www.acme.test', expect: [401, 403, 403, 403, 200, 200, 403, 200, 403, 403] },
  { key: 'POST /projects/:id/pages/domains', path: '/projects/20/pages/domains', body: { domain: 'matrix.acme.test' }, expect: [401, 403, 403, 403, 201, 201, 403, 201, 403, S] },
  { key: 'PUT /projects/:id/pages/domains/:domain', path: '/projects/20/pages/domains/www.acme.test', body: { auto_ssl_enabled: true }, expect: [401, 403, 403, 403, 200, 200, 403, 200, 403, S] },
  { key: 'DELETE /projects/:id/pages/domains/:domain', path: '/projects/20/pages/domains/www.acme.test', expect: [401, 403, 403, 403, 204, 204, 403, 204, 403, S] },
  { key: 'DELETE /projects/:id/pages', path: '/projects/20/pages', expect: [401, 403, 403, 403, 403, 403, 403, 204, 403, S] },
  // Remote mirrors (issue 34 item 7; lib/api/remote_mirrors.rb): admin_remote_mirror (Maintainer+), and
  // `unauthorized!` (401, not 403) below it once the project is readable. Mirror 1 of project 20.
  { key: 'GET /projects/:id/remote_mirrors', path: '/projects/20/remote_mirrors', expect: [401, 401, 401, 401, 200, 200, 401, 200, 401, 401] },
  { key: 'GET /projects/:id/remote_mirrors', path: '/projects/21/remote_mirrors', expect: [404, 401, 401, 401, 200, 200, 404, 200, 404, 401] },
  { key: 'GET /projects/:id/remote_mirrors/:mirror_id', path: '/projects/20/remote_mirrors/1', expect: [401, 401, 401, 401, 200, 200, 401, 200, 401, 401] },
  { key: 'POST /projects/:id/remote_mirrors', path: '/projects/20/remote_mirrors', body: { url: 'https://example.com/matrix.git' }, expect: [401, 401, 401, 401, 201, 201, 401, 201, 401, S] },
  { key: 'PUT /projects/:id/remote_mirrors/:mirror_id', path: '/projects/20/remote_mirrors/1', body: { enabled: false }, expect: [401, 401, 401, 401, 200, 200, 401, 200, 401, S] },
  // Templates (issue 36 item 4; lib/api/templates.rb): anyone, anonymous callers too.
  { key: 'GET /templates/gitignores', path: '/templates/gitignores', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /templates/gitignores/:name', path: '/templates/gitignores/Node', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /templates/gitlab_ci_ymls', path: '/templates/gitlab_ci_ymls', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /templates/gitlab_ci_ymls/:name', path: '/templates/gitlab_ci_ymls/Nodejs', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /templates/dockerfiles', path: '/templates/dockerfiles', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /templates/dockerfiles/:name', path: '/templates/dockerfiles/Node', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /templates/licenses', path: '/templates/licenses', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /templates/licenses/:name', path: '/templates/licenses/mit', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  // Project templates (issue 36 item 4; lib/api/project_templates.rb): whoever can read the project,
  // anonymous callers of a public one too; a private project is 404 to a non-member.
  { key: 'GET /projects/:id/templates/:type', path: '/projects/20/templates/licenses', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/templates/:type', path: '/projects/21/templates/issues', expect: [404, 200, 200, 200, 200, 200, 404, 200, 404, 200] },
  { key: 'GET /projects/:id/templates/:type/:name', path: '/projects/20/templates/licenses/mit', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/templates/:type/:name', path: '/projects/21/templates/gitignores/Node', expect: [404, 200, 200, 200, 200, 200, 404, 200, 404, 200] },
  // Pipeline triggers and schedules (issue 36 item 2; lib/api/triggers.rb, lib/api/ci/pipeline_schedules.rb).
  { key: 'GET /projects/:id/triggers', path: '/projects/20/triggers', arrange: ciTriggers, expect: [401, 403, 403, 403, 200, 200, 403, 200, 403, 403] },
  { key: 'GET /projects/:id/triggers/:trigger_id', path: '/projects/20/triggers/9200', arrange: ciTriggers, expect: [401, 403, 403, 403, 200, 200, 403, 200, 403, 403] },
  { key: 'POST /projects/:id/triggers', path: '/projects/20/triggers', body: { description: 'd' }, expect: [401, 403, 403, 403, 201, 201, 403, 201, 403, S] },
  // Updating is for its owner (max) only (`admin_trigger`).
  { key: 'PUT /projects/:id/triggers/:trigger_id', path: '/projects/20/triggers/9200', arrange: ciTriggers, body: { description: 'e' }, expect: [401, 403, 403, 403, 200, 403, 403, 403, 403, S] },
  { key: 'DELETE /projects/:id/triggers/:trigger_id', path: '/projects/20/triggers/9200', arrange: ciTriggers, expect: [401, 403, 403, 403, 204, 204, 403, 204, 403, S] },
  // The token is the credential: every caller makes the pipeline (as max), read_api tokens refused.
  { key: 'POST /projects/:id/trigger/pipeline', path: '/projects/20/trigger/pipeline', arrange: ciTriggers, body: { token: '0123456789abcdef0123456789abcdef01234567', ref: 'main' }, expect: [201, 201, 201, 201, 201, 201, 201, 201, 201, S] },
  { key: 'POST /projects/:id/ref/:ref/trigger/pipeline', path: '/projects/20/ref/main/trigger/pipeline', arrange: ciTriggers, body: { token: '0123456789abcdef0123456789abcdef01234567' }, expect: [201, 201, 201, 201, 201, 201, 201, 201, 201, S] },
  { key: 'GET /projects/:id/pipeline_schedules', path: '/projects/20/pipeline_schedules', arrange: ciTriggers, expect: [403, 403, 200, 200, 200, 200, 403, 200, 403, 200] },
  { key: 'GET /projects/:id/pipeline_schedules/:pipeline_schedule_id', path: '/projects/20/pipeline_schedules/9300', arrange: ciTriggers, expect: [403, 403, 200, 200, 200, 200, 403, 200, 403, 200] },
  { key: 'POST /projects/:id/pipeline_schedules', path: '/projects/20/pipeline_schedules', body: { description: 'd', ref: 'main', cron: '0 1 * * *' }, expect: [401, 403, 403, 201, 201, 201, 403, 201, 403, S] },
  // The schedule is devon's: devon or a Maintainer+ updates it.
  { key: 'PUT /projects/:id/pipeline_schedules/:pipeline_schedule_id', path: '/projects/20/pipeline_schedules/9300', arrange: ciTriggers, body: { active: false }, expect: [401, 403, 403, 200, 200, 200, 403, 200, 403, S] },
  { key: 'POST /projects/:id/pipeline_schedules/:pipeline_schedule_id/take_ownership', path: '/projects/20/pipeline_schedules/9300/take_ownership', arrange: ciTriggers, expect: [401, 403, 403, 403, 201, 201, 403, 201, 403, S] },
  { key: 'DELETE /projects/:id/pipeline_schedules/:pipeline_schedule_id', path: '/projects/20/pipeline_schedules/9300', arrange: ciTriggers, expect: [401, 403, 403, 403, 204, 204, 403, 204, 403, S] },
  { key: 'POST /projects/:id/pipeline_schedules/:pipeline_schedule_id/play', path: '/projects/20/pipeline_schedules/9300/play', arrange: ciTriggers, expect: [401, 403, 403, 201, 201, 201, 403, 201, 403, S] },
  { key: 'POST /projects/:id/pipeline_schedules/:pipeline_schedule_id/variables', path: '/projects/20/pipeline_schedules/9300/variables', arrange: ciTriggers, body: { key: 'NEW', value: 'v' }, expect: [401, 403, 403, 201, 201, 201, 403, 201, 403, S] },
  { key: 'GET /projects/:id/pipeline_schedules/:pipeline_schedule_id/variables/:key', path: '/projects/20/pipeline_schedules/9300/variables/AUTHZ', arrange: ciTriggers, expect: [403, 403, 200, 200, 200, 200, 403, 200, 403, 200] },
  { key: 'PUT /projects/:id/pipeline_schedules/:pipeline_schedule_id/variables/:key', path: '/projects/20/pipeline_schedules/9300/variables/AUTHZ', arrange: ciTriggers, body: { value: 'w' }, expect: [401, 403, 403, 200, 200, 200, 403, 200, 403, S] },
  { key: 'DELETE /projects/:id/pipeline_schedules/:pipeline_schedule_id/variables/:key', path: '/projects/20/pipeline_schedules/9300/variables/AUTHZ', arrange: ciTriggers, expect: [401, 403, 403, 202, 202, 202, 403, 202, 403, S] },
  // Version (lib branch): any signed-in user; anonymous 401 (lib/api/version.rb `authenticate!`).
  { key: 'GET /version', path: '/version', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },

  // Topics (GitLab 14.5+, for python-gitlab's suite): anyone reads; administrators write (403 for others, 401 anonymous).
  { key: 'GET /topics', path: '/topics', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /topics/:id', path: '/topics/1', arrange: addTopics, expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'POST /topics', path: '/topics', body: { name: 'matrix' }, expect: [401, 403, 403, 403, 403, 403, 403, 201, 403, S] },
  { key: 'PUT /topics/:id', path: '/topics/1', arrange: addTopics, body: { description: 'Changed' }, expect: [401, 403, 403, 403, 403, 403, 403, 200, 403, S] },
  { key: 'DELETE /topics/:id', path: '/topics/1', arrange: addTopics, expect: [401, 403, 403, 403, 403, 403, 403, 204, 403, S] },
  { key: 'POST /topics/merge', path: '/topics/merge', arrange: addTopics, body: { source_topic_id: 1, target_topic_id: 2 }, expect: [401, 403, 403, 403, 403, 403, 403, 201, 403, S] },
  // Repository reads (issue 26): `download_code`. Anonymous and non-members read a public project's
  // code; a private project's guest gets 403, its reporter 200 (21's repository is empty: lists are []).
  ...[
    '/projects/20/repository/branches', '/projects/20/repository/branches/main', '/projects/20/repository/tags',
    '/projects/20/repository/tags/v1.0.0', '/projects/20/repository/commits', '/projects/20/repository/commits/main',
    '/projects/20/repository/commits/main/diff', '/projects/20/repository/commits/main/refs', '/projects/20/repository/tree',
    '/projects/20/repository/blobs/9592db4008c5a60c6f75326db5cb4c27ec035610', '/projects/20/repository/blobs/9592db4008c5a60c6f75326db5cb4c27ec035610/raw',
    '/projects/20/repository/compare?from=main&to=feature%2Flogin', '/projects/20/repository/files/README.md?ref=main',
    '/projects/20/repository/files/README.md/raw',
  ].map((path): Row => ({
    key: `GET ${path.split('?')[0]!.replace('/projects/20/', '/projects/:id/').replace(/branches\/main$/, 'branches/:branch').replace(/tags\/v1\.0\.0$/, 'tags/:tag_name').replace(/commits\/main/, 'commits/:sha').replace(/blobs\/[0-9a-f]{40}/, 'blobs/:sha').replace(/files\/README\.md/, 'files/:file_path')}`,
    path,
    expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
    ...(path.endsWith('/raw') ? { ok: path.includes('files') ? '# Website\n\nThe Acme website.\n' : '<footer>\n  <a href="/about">About</a>\n  <a href="/support">Contact</a>\n</footer>\n' } : {}),
  })),
  ...['branches', 'tags', 'commits'].map((what): Row => ({
    key: `GET /projects/:id/repository/${what}`,
    path: `/projects/21/repository/${what}`,
    expect: [404, 403, 200, 200, 200, 200, 404, 200, 404, 200],
  })),
  // Repository reads added with the writes (issue 26 item 2): `download_code`, as above.
  { key: 'GET /projects/:id/repository/files/:file_path/blame', path: '/projects/20/repository/files/footer.html/blame?ref=main', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  // Grape `head` routes (reach; files.rb, branches.rb 13.12): `download_code`; no body, a branch 204.
  { key: 'HEAD /projects/:id/repository/files/:file_path', path: '/projects/20/repository/files/README.md?ref=main', ok: '', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'HEAD /projects/:id/repository/files/:file_path/blame', path: '/projects/20/repository/files/footer.html/blame?ref=main', ok: '', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'HEAD /projects/:id/repository/branches/:branch', path: '/projects/20/repository/branches/main', expect: [204, 204, 204, 204, 204, 204, 204, 204, 204, 204] },
  { key: 'GET /projects/:id/repository/contributors', path: '/projects/20/repository/contributors', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/repository/merge_base', path: '/projects/20/repository/merge_base?refs[]=main&refs[]=feature%2Flogin', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  ...['', '.zip', '.tar', '.tar.gz', '.tgz', '.gz', '.tar.bz2', '.tbz', '.tbz2', '.tb2', '.bz2'].map((suffix): Row => ({
    key: `GET /projects/:id/repository/archive${suffix}`,
    path: `/projects/20/repository/archive${suffix}`,
    expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
    ok: 'binary',
  })),
  { key: 'GET /projects/:id/repository/commits/:sha/merge_requests', path: '/projects/20/repository/commits/feature%2Flogin/merge_requests', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  // project_snapshots.rb: `authenticated_with_can_read_all_resources!` before anything else.
  { key: 'GET /projects/:id/snapshot', path: '/projects/20/snapshot', expect: [401, 403, 403, 403, 403, 403, 403, 200, 403, 403], ok: 'binary' },
  { key: 'GET /projects/:id/repository/contributors', path: '/projects/21/repository/contributors', expect: [404, 403, 200, 200, 200, 200, 404, 200, 404, 200] },
  // Repository writes (issue 26 item 2; gitlab: lib/api/branches.rb, tags.rb, commits.rb, files.rb 13.x):
  // `push_code` (Developer+), and protected branches: main is protected (Maintainers), so the
  // commit rows write to feature/login. A refusal of the push to a branch names it.
  { key: 'POST /projects/:id/repository/branches', path: '/projects/20/repository/branches', body: { branch: 'authz', ref: 'main' }, expect: [401, 403, 403, 201, 201, 201, 403, 201, 403, S] },
  { key: 'DELETE /projects/:id/repository/branches/:branch', path: '/projects/20/repository/branches/feature%2Flogin', expect: [401, 403, 403, 204, 204, 204, 403, 204, 403, S] },
  { key: 'DELETE /projects/:id/repository/merged_branches', path: '/projects/20/repository/merged_branches', expect: [401, 202, 202, 202, 202, 202, 202, 202, 202, S] },
  { key: 'DELETE /projects/:id/repository/merged_branches', path: '/projects/21/repository/merged_branches', expect: [401, 403, 202, 202, 202, 202, 404, 202, 404, S] },
  { key: 'POST /projects/:id/repository/tags', path: '/projects/20/repository/tags', body: { tag_name: 'authz', ref: 'main' }, expect: [401, 403, 403, 201, 201, 201, 403, 201, 403, S] },
  { key: 'DELETE /projects/:id/repository/tags/:tag_name', path: '/projects/20/repository/tags/v0.9.0', expect: [401, 403, 403, 204, 204, 204, 403, 204, 403, S] },
  // tags.rb's deprecated release notes: download_code, then create_release / update_release (Developer+;
  // 403 without a release to update).
  { key: 'POST /projects/:id/repository/tags/:tag_name/release', path: '/projects/20/repository/tags/v0.9.0/release', body: { description: 'notes' }, expect: [401, 403, 403, 201, 201, 201, 403, 201, 403, S] },
  { key: 'PUT /projects/:id/repository/tags/:tag_name/release', path: '/projects/20/repository/tags/v1.0.0/release', body: { description: 'notes' }, expect: [401, 403, 403, 200, 200, 200, 403, 200, 403, S] },
  { key: 'POST /projects/:id/repository/commits', path: '/projects/20/repository/commits', body: { branch: 'feature/login', commit_message: 'authz', actions: [{ action: 'create', file_path: 'authz.md', content: 'x' }] }, expect: [401, 403, 403, 201, 201, 201, 403, 201, 403, S], forbidden: { message: '403 Forbidden - You are not allowed to push into this branch' } },
  { key: 'POST /projects/:id/repository/commits/:sha/cherry_pick', path: '/projects/20/repository/commits/69feb7e89cc3965598b7884388b8f943deee5e03/cherry_pick', body: { branch: 'fix/footer-links' }, expect: [401, 403, 403, 201, 201, 201, 403, 201, 403, S], forbidden: { message: '403 Forbidden - You are not allowed to push into this branch' } },
  { key: 'POST /projects/:id/repository/commits/:sha/revert', path: '/projects/20/repository/commits/69feb7e89cc3965598b7884388b8f943deee5e03/revert', body: { branch: 'feature/login' }, expect: [401, 403, 403, 201, 201, 201, 403, 201, 403, S], forbidden: { message: '403 Forbidden - You are not allowed to push into this branch' } },
  { key: 'POST /projects/:id/repository/files/:file_path', path: '/projects/20/repository/files/authz.md', body: { branch: 'feature/login', commit_message: 'authz', content: 'x' }, expect: [401, 403, 403, 201, 201, 201, 403, 201, 403, S] },
  { key: 'PUT /projects/:id/repository/files/:file_path', path: '/projects/20/repository/files/README.md', body: { branch: 'feature/login', commit_message: 'authz', content: 'x' }, expect: [401, 403, 403, 200, 200, 200, 403, 200, 403, S] },
  { key: 'DELETE /projects/:id/repository/files/:file_path', path: '/projects/20/repository/files/README.md', body: { branch: 'feature/login', commit_message: 'authz' }, expect: [401, 403, 403, 204, 204, 204, 403, 204, 403, S] },
  // Protected branches (gitlab: lib/api/protected_branches.rb, branches.rb protect/unprotect):
  // `authorize_admin_project`, Maintainer+; no authentication first, so anonymous gets 403 too.
  { key: 'GET /projects/:id/protected_branches', path: '/projects/20/protected_branches', expect: [403, 403, 403, 403, 200, 200, 403, 200, 403, 403] },
  { key: 'GET /projects/:id/protected_branches', path: '/projects/21/protected_branches', expect: [404, 403, 403, 403, 200, 200, 404, 200, 404, 403] },
  { key: 'GET /projects/:id/protected_branches/:name', path: '/projects/20/protected_branches/main', expect: [403, 403, 403, 403, 200, 200, 403, 200, 403, 403] },
  { key: 'POST /projects/:id/protected_branches', path: '/projects/20/protected_branches', body: { name: 'authz/*' }, expect: [401, 403, 403, 403, 201, 201, 403, 201, 403, S] },
  { key: 'DELETE /projects/:id/protected_branches/:name', path: '/projects/20/protected_branches/main', expect: [401, 403, 403, 403, 204, 204, 403, 204, 403, S] },
  { key: 'PUT /projects/:id/repository/branches/:branch/protect', path: '/projects/20/repository/branches/feature%2Flogin/protect', expect: [401, 403, 403, 403, 200, 200, 403, 200, 403, S] },
  { key: 'PUT /projects/:id/repository/branches/:branch/unprotect', path: '/projects/20/repository/branches/main/unprotect', expect: [401, 403, 403, 403, 200, 200, 403, 200, 403, S] },
  // Protected tags (reach; gitlab: lib/api/protected_tags.rb): `before { authorize_admin_project }`, Maintainer+, anonymous reads 403 too.
  { key: 'GET /projects/:id/protected_tags', path: '/projects/20/protected_tags', expect: [403, 403, 403, 403, 200, 200, 403, 200, 403, 403] },
  { key: 'GET /projects/:id/protected_tags', path: '/projects/21/protected_tags', expect: [404, 403, 403, 403, 200, 200, 404, 200, 404, 403] },
  { key: 'GET /projects/:id/protected_tags/:name', path: '/projects/20/protected_tags/release-*', expect: [403, 403, 403, 403, 200, 200, 403, 200, 403, 403] },
  { key: 'POST /projects/:id/protected_tags', path: '/projects/20/protected_tags', body: { name: 'authz-*' }, expect: [401, 403, 403, 403, 201, 201, 403, 201, 403, S] },
  { key: 'DELETE /projects/:id/protected_tags/:name', path: '/projects/20/protected_tags/release-*', expect: [401, 403, 403, 403, 204, 204, 403, 204, 403, S] },
  // Releases (issue 26 item 4; gitlab: lib/api/releases.rb, release/links.rb 13.x): read_release is
  // reading the project (a private project's guest lists releases, code fields hidden); one release
  // also needs download_code; writes are Developer+ (create_/update_/destroy_release).
  { key: 'GET /projects/:id/releases', path: '/projects/20/releases', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/releases', path: '/projects/21/releases', expect: [404, 200, 200, 200, 200, 200, 404, 200, 404, 200] },
  { key: 'GET /projects/:id/releases/:tag_name', path: '/projects/20/releases/v1.0.0', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'POST /projects/:id/releases', path: '/projects/20/releases', body: { tag_name: 'v0.9.0' }, expect: [401, 403, 403, 201, 201, 201, 403, 201, 403, S] },
  { key: 'PUT /projects/:id/releases/:tag_name', path: '/projects/20/releases/v1.0.0', body: { name: 'authz' }, expect: [401, 403, 403, 200, 200, 200, 403, 200, 403, S] },
  { key: 'DELETE /projects/:id/releases/:tag_name', path: '/projects/20/releases/v1.0.0', expect: [401, 403, 403, 200, 200, 200, 403, 200, 403, S] },
  { key: 'GET /projects/:id/releases/:tag_name/assets/links', path: '/projects/20/releases/v1.0.0/assets/links', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/releases/:tag_name/assets/links/:link_id', path: '/projects/20/releases/v1.0.0/assets/links/1', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'POST /projects/:id/releases/:tag_name/assets/links', path: '/projects/20/releases/v1.0.0/assets/links', body: { name: 'authz', url: 'https://authz.test' }, expect: [401, 403, 403, 201, 201, 201, 403, 201, 403, S] },
  { key: 'PUT /projects/:id/releases/:tag_name/assets/links/:link_id', path: '/projects/20/releases/v1.0.0/assets/links/1', body: { name: 'authz' }, expect: [401, 403, 403, 200, 200, 200, 403, 200, 403, S] },
  { key: 'DELETE /projects/:id/releases/:tag_name/assets/links/:link_id', path: '/projects/20/releases/v1.0.0/assets/links/1', expect: [401, 403, 403, 200, 200, 200, 403, 200, 403, S] },

  // ---- merge requests (issue 25 item 1; gitlab: lib/api/merge_requests.rb, app/policies/project_policy.rb:
  // read_merge_request is public access or Reporter+; update Developer+ or author/assignee; delete owners) ----
  { key: 'GET /merge_requests', path: '/merge_requests', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /groups/:id/merge_requests', path: '/groups/10/merge_requests', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /groups/:id/merge_requests', path: '/groups/11/merge_requests', expect: [404, 200, 200, 200, 200, 200, 404, 200, 404, 200] },
  { key: 'GET /projects/:id/merge_requests', path: '/projects/20/merge_requests', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/merge_requests', path: '/projects/21/merge_requests', expect: [404, 403, 200, 200, 200, 200, 404, 200, 404, 200] },
  { key: 'GET /projects/:id/merge_requests/:merge_request_iid', path: '/projects/20/merge_requests/1', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'PUT /projects/:id/merge_requests/:merge_request_iid', path: '/projects/20/merge_requests/1', body: { title: 'Fix the login button for good' }, expect: [401, 403, 403, 200, 200, 200, 403, 200, 403, S] },
  { key: 'DELETE /projects/:id/merge_requests/:merge_request_iid', path: '/projects/20/merge_requests/1', expect: [401, 403, 403, 403, 403, 204, 403, 204, 403, S] },
  { key: 'GET /projects/:id/merge_requests/:merge_request_iid/participants', path: '/projects/20/merge_requests/1/participants', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/merge_requests/:merge_request_iid/closes_issues', path: '/projects/20/merge_requests/1/closes_issues', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/merge_requests/:merge_request_iid/pipelines', path: '/projects/20/merge_requests/3/pipelines', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'POST /projects/:id/merge_requests/:merge_request_iid/subscribe', path: '/projects/20/merge_requests/1/subscribe', expect: [401, 201, 201, 304, 201, 201, 201, 201, 201, S] },
  { key: 'POST /projects/:id/merge_requests/:merge_request_iid/unsubscribe', path: '/projects/20/merge_requests/1/unsubscribe', expect: [401, 304, 304, 201, 304, 304, 304, 304, 304, S] },
  { key: 'POST /projects/:id/merge_requests/:merge_request_iid/todo', path: '/projects/20/merge_requests/1/todo', expect: [401, 201, 201, 304, 201, 201, 201, 201, 201, S] },
  { key: 'POST /projects/:id/merge_requests/:merge_request_iid/time_estimate', path: '/projects/20/merge_requests/1/time_estimate', body: { duration: '1h' }, expect: [401, 403, 403, 200, 200, 200, 403, 200, 403, S] },
  { key: 'POST /projects/:id/merge_requests/:merge_request_iid/reset_time_estimate', path: '/projects/20/merge_requests/1/reset_time_estimate', expect: [401, 403, 403, 200, 200, 200, 403, 200, 403, S] },
  { key: 'POST /projects/:id/merge_requests/:merge_request_iid/add_spent_time', path: '/projects/20/merge_requests/1/add_spent_time', body: { duration: '1h' }, expect: [401, 403, 403, 201, 201, 201, 403, 201, 403, S] },
  { key: 'POST /projects/:id/merge_requests/:merge_request_iid/reset_spent_time', path: '/projects/20/merge_requests/1/reset_spent_time', expect: [401, 403, 403, 200, 200, 200, 403, 200, 403, S] },
  { key: 'GET /projects/:id/merge_requests/:merge_request_iid/time_stats', path: '/projects/20/merge_requests/1/time_stats', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },

  // Resource events (issue 25 item 5): every route needs a user (`authenticate!`); reading the
  // issue or merge request is enough (`find_noteable`). ivy/tracker (30, public) #1 has label event
  // 1 and milestone event 1, #3 state event 1, !1 label event 3 and milestone event 2, !2 state event 2.
  { key: 'GET /projects/:id/issues/:eventable_id/resource_label_events', path: '/projects/20/issues/1/resource_label_events', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/issues/:eventable_id/resource_label_events', path: '/projects/21/issues/1/resource_label_events', expect: [401, 200, 200, 200, 200, 200, 404, 200, 404, 200] },
  { key: 'GET /projects/:id/issues/:eventable_id/resource_label_events/:event_id', path: '/projects/30/issues/1/resource_label_events/1', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/issues/:eventable_id/resource_milestone_events', path: '/projects/21/issues/1/resource_milestone_events', expect: [401, 200, 200, 200, 200, 200, 404, 200, 404, 200] },
  { key: 'GET /projects/:id/issues/:eventable_id/resource_milestone_events/:event_id', path: '/projects/30/issues/1/resource_milestone_events/1', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/issues/:eventable_iid/resource_state_events', path: '/projects/21/issues/1/resource_state_events', expect: [401, 200, 200, 200, 200, 200, 404, 200, 404, 200] },
  { key: 'GET /projects/:id/issues/:eventable_iid/resource_state_events/:event_id', path: '/projects/30/issues/3/resource_state_events/1', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  // acme/website #4 is confidential: hidden from guests and non-members (IssuesFinder, 404 Not found).
  { key: 'GET /projects/:id/issues/:eventable_iid/resource_state_events', path: '/projects/20/issues/4/resource_state_events', expect: [401, 404, 200, 200, 200, 200, 404, 200, 404, 200], notFound: { message: '404 Not found' } },
  { key: 'GET /projects/:id/merge_requests/:eventable_id/resource_label_events', path: '/projects/20/merge_requests/1/resource_label_events', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/merge_requests/:eventable_id/resource_label_events/:event_id', path: '/projects/30/merge_requests/1/resource_label_events/3', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/merge_requests/:eventable_id/resource_milestone_events', path: '/projects/20/merge_requests/1/resource_milestone_events', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/merge_requests/:eventable_id/resource_milestone_events/:event_id', path: '/projects/30/merge_requests/1/resource_milestone_events/2', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/merge_requests/:eventable_iid/resource_state_events', path: '/projects/20/merge_requests/1/resource_state_events', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/merge_requests/:eventable_iid/resource_state_events/:event_id', path: '/projects/30/merge_requests/2/resource_state_events/2', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },

  // Issue links (issue 25 item 6): a user is needed (`authenticate!`); reading the issue lists its
  // links; linking needs `admin_issue_link` (Reporter+) on the target, else the service's 404;
  // deleting needs it on both ends, else 404 No Issue Link found. olive is not a member of
  // ivy/tracker (30), where link 1 joins #1 and #2.
  { key: 'GET /projects/:id/issues/:issue_iid/links', path: '/projects/30/issues/1/links', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/issues/:issue_iid/links', path: '/projects/21/issues/1/links', expect: [401, 200, 200, 200, 200, 200, 404, 200, 404, 200] },
  {
    key: 'POST /projects/:id/issues/:issue_iid/links',
    path: '/projects/20/issues/1/links',
    body: { target_project_id: 20, target_issue_iid: 2 },
    expect: [401, 404, 201, 201, 201, 201, 404, 201, 404, S],
    notFound: { message: 'No matching issue found. Make sure that you are adding a valid issue URL.' },
  },
  { key: 'DELETE /projects/:id/issues/:issue_iid/links/:issue_link_id', path: '/projects/30/issues/1/links/1', expect: [401, 404, 200, 200, 200, 404, 404, 200, 404, S], notFound: { message: 'No Issue Link found' } },
  // ---- notes and discussions (issue 25 items 1 and 4; gitlab: lib/api/notes.rb, discussions.rb,
  // award_emoji.rb, app/policies/note_policy.rb): every route needs a user; reading follows the
  // noteable; admin_note is the note's author, Maintainer+ or an administrator; resolving a whole
  // discussion is the merge request's author or Developer+. acme/website !3 (504, devon): note 702
  // is riley's, 704 max's; ivy/tracker #2 (406): note 705 is gina's, and olive is no member there ----
  { key: 'GET /projects/:id/merge_requests/:merge_request_iid/notes', path: '/projects/20/merge_requests/3/notes', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/merge_requests/:merge_request_iid/notes/:note_id', path: '/projects/20/merge_requests/3/notes/704', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'POST /projects/:id/merge_requests/:merge_request_iid/notes', path: '/projects/20/merge_requests/3/notes', body: { body: 'matrix' }, expect: [401, 201, 201, 201, 201, 201, 201, 201, 201, S] },
  { key: 'PUT /projects/:id/merge_requests/:merge_request_iid/notes/:note_id', path: '/projects/20/merge_requests/3/notes/704', body: { body: 'matrix' }, expect: [401, 403, 403, 403, 200, 200, 403, 200, 403, S] },
  { key: 'DELETE /projects/:id/merge_requests/:merge_request_iid/notes/:note_id', path: '/projects/20/merge_requests/3/notes/704', expect: [401, 403, 403, 403, 204, 204, 403, 204, 403, S] },
  { key: 'GET /projects/:id/merge_requests/:merge_request_iid/award_emoji', path: '/projects/20/merge_requests/1/award_emoji', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/merge_requests/:merge_request_iid/award_emoji/:award_id', path: '/projects/20/merge_requests/1/award_emoji/1', expect: [401, 404, 404, 404, 404, 404, 404, 404, 404, 404], notFound: { message: '404 Not found' } },
  { key: 'POST /projects/:id/merge_requests/:merge_request_iid/award_emoji', path: '/projects/20/merge_requests/1/award_emoji', body: { name: 'tada' }, expect: [401, 201, 201, 201, 201, 201, 201, 201, 201, S] },
  { key: 'DELETE /projects/:id/merge_requests/:merge_request_iid/award_emoji/:award_id', path: '/projects/20/merge_requests/1/award_emoji/1', expect: [401, 404, 404, 404, 404, 404, 404, 404, 404, S], notFound: { message: '404 Not found' } },
  { key: 'GET /projects/:id/merge_requests/:merge_request_iid/notes/:note_id/award_emoji', path: '/projects/20/merge_requests/3/notes/704/award_emoji', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/merge_requests/:merge_request_iid/notes/:note_id/award_emoji/:award_id', path: '/projects/20/merge_requests/3/notes/704/award_emoji/1', expect: [401, 404, 404, 404, 404, 404, 404, 404, 404, 404], notFound: { message: '404 Not found' } },
  { key: 'POST /projects/:id/merge_requests/:merge_request_iid/notes/:note_id/award_emoji', path: '/projects/20/merge_requests/3/notes/704/award_emoji', body: { name: 'tada' }, expect: [401, 201, 201, 201, 201, 201, 201, 201, 201, S] },
  { key: 'DELETE /projects/:id/merge_requests/:merge_request_iid/notes/:note_id/award_emoji/:award_id', path: '/projects/20/merge_requests/3/notes/704/award_emoji/1', expect: [401, 404, 404, 404, 404, 404, 404, 404, 404, S], notFound: { message: '404 Not found' } },
  { key: 'GET /projects/:id/issues/:issue_iid/discussions', path: '/projects/30/issues/2/discussions', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/issues/:issue_iid/discussions/:discussion_id', path: `/projects/30/issues/2/discussions/${ISSUE_DISCUSSION}`, expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'POST /projects/:id/issues/:issue_iid/discussions', path: '/projects/30/issues/2/discussions', body: { body: 'matrix' }, expect: [401, 201, 201, 201, 201, 201, 201, 201, 201, S] },
  { key: 'GET /projects/:id/issues/:issue_iid/discussions/:discussion_id/notes', path: `/projects/30/issues/2/discussions/${ISSUE_DISCUSSION}/notes`, expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'POST /projects/:id/issues/:issue_iid/discussions/:discussion_id/notes', path: `/projects/30/issues/2/discussions/${ISSUE_DISCUSSION}/notes`, body: { body: 'matrix' }, expect: [401, 201, 201, 201, 201, 201, 201, 201, 201, S] },
  { key: 'GET /projects/:id/issues/:issue_iid/discussions/:discussion_id/notes/:note_id', path: `/projects/30/issues/2/discussions/${ISSUE_DISCUSSION}/notes/705`, expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'PUT /projects/:id/issues/:issue_iid/discussions/:discussion_id/notes/:note_id', path: `/projects/30/issues/2/discussions/${ISSUE_DISCUSSION}/notes/705`, body: { body: 'matrix' }, expect: [401, 200, 403, 403, 200, 403, 403, 200, 403, S] },
  { key: 'DELETE /projects/:id/issues/:issue_iid/discussions/:discussion_id/notes/:note_id', path: `/projects/30/issues/2/discussions/${ISSUE_DISCUSSION}/notes/705`, expect: [401, 204, 403, 403, 204, 403, 403, 204, 403, S] },
  { key: 'GET /projects/:id/merge_requests/:merge_request_iid/discussions', path: '/projects/20/merge_requests/3/discussions', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/merge_requests/:merge_request_iid/discussions/:discussion_id', path: `/projects/20/merge_requests/3/discussions/${MR_DISCUSSION}`, expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'POST /projects/:id/merge_requests/:merge_request_iid/discussions', path: '/projects/20/merge_requests/3/discussions', body: { body: 'matrix' }, expect: [401, 201, 201, 201, 201, 201, 201, 201, 201, S] },
  { key: 'PUT /projects/:id/merge_requests/:merge_request_iid/discussions/:discussion_id', path: `/projects/20/merge_requests/3/discussions/${MR_DISCUSSION}`, body: { resolved: true }, expect: [401, 403, 403, 200, 200, 200, 403, 200, 403, S] },
  { key: 'GET /projects/:id/merge_requests/:merge_request_iid/discussions/:discussion_id/notes', path: `/projects/20/merge_requests/3/discussions/${MR_DISCUSSION}/notes`, expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'POST /projects/:id/merge_requests/:merge_request_iid/discussions/:discussion_id/notes', path: `/projects/20/merge_requests/3/discussions/${MR_DISCUSSION}/notes`, body: { body: 'matrix' }, expect: [401, 201, 201, 201, 201, 201, 201, 201, 201, S] },
  { key: 'GET /projects/:id/merge_requests/:merge_request_iid/discussions/:discussion_id/notes/:note_id', path: `/projects/20/merge_requests/3/discussions/${MR_DISCUSSION}/notes/702`, expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'PUT /projects/:id/merge_requests/:merge_request_iid/discussions/:discussion_id/notes/:note_id', path: `/projects/20/merge_requests/3/discussions/${MR_DISCUSSION}/notes/702`, body: { body: 'matrix' }, expect: [401, 403, 200, 403, 200, 200, 403, 200, 403, S] },
  { key: 'DELETE /projects/:id/merge_requests/:merge_request_iid/discussions/:discussion_id/notes/:note_id', path: `/projects/20/merge_requests/3/discussions/${MR_DISCUSSION}/notes/702`, expect: [401, 403, 204, 403, 204, 204, 403, 204, 403, S] },
  // Merge requests on the repository (issue 26 item 3). Create: `create_merge_request_from`
  // (Developer+). Merge: `can_be_merged_by?` (push or merge access to main, protected for
  // Maintainers), else 401. Cancel: a merger or the author (devon). Rebase: push access to the
  // source branch (feature/login), else 403 naming it.
  { key: 'POST /projects/:id/merge_requests', path: '/projects/20/merge_requests', body: { title: 'authz', source_branch: 'feature/login', target_branch: 'fix/footer-links' }, expect: [401, 403, 403, 201, 201, 201, 403, 201, 403, S] },
  { key: 'GET /projects/:id/merge_requests/:merge_request_iid/changes', path: '/projects/20/merge_requests/1/changes', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/merge_requests/:merge_request_iid/commits', path: '/projects/20/merge_requests/1/commits', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/merge_requests/:merge_request_iid/merge_ref', path: '/projects/20/merge_requests/1/merge_ref', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'PUT /projects/:id/merge_requests/:merge_request_iid/merge', path: '/projects/20/merge_requests/1/merge', expect: [401, 401, 401, 401, 200, 200, 401, 200, 401, S] },
  { key: 'POST /projects/:id/merge_requests/:merge_request_iid/cancel_merge_when_pipeline_succeeds', path: '/projects/20/merge_requests/1/cancel_merge_when_pipeline_succeeds', expect: [401, 401, 401, 201, 201, 201, 401, 201, 401, S] },
  { key: 'PUT /projects/:id/merge_requests/:merge_request_iid/rebase', path: '/projects/20/merge_requests/1/rebase', expect: [401, 403, 403, 202, 202, 202, 403, 202, 403, S], forbidden: { message: '403 Forbidden - Cannot push to source branch' } },
  // ---- notes on commits (issue 26 item 2; gitlab: lib/api/commits.rb, discussions.rb,
  // helpers/notes_helpers.rb): comments follow commits.rb (`download_code`; an anonymous comment
  // fails the note's validation, 400); discussions `authenticate!` and `read_commit`; editing and
  // deleting a note is `admin_note` (its author riley, Maintainer+, administrators).
  { key: 'GET /projects/:id/repository/commits/:sha/comments', path: '/projects/20/repository/commits/main/comments', arrange: commitNote, expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'POST /projects/:id/repository/commits/:sha/comments', path: '/projects/20/repository/commits/main/comments', body: { note: 'matrix' }, expect: [400, 201, 201, 201, 201, 201, 201, 201, 201, S], badRequest: { message: 'Failed to save note {:author=>["can\'t be blank"]}' } },
  { key: 'GET /projects/:id/repository/commits/:sha/signature', path: '/projects/20/repository/commits/main/signature', expect: [404, 404, 404, 404, 404, 404, 404, 404, 404, 404], notFound: { message: '404 Signature Not Found' } },
  { key: 'GET /projects/:id/repository/commits/:commit_id/discussions', path: '/projects/20/repository/commits/main/discussions', arrange: commitNote, expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/repository/commits/:commit_id/discussions/:discussion_id', path: `/projects/20/repository/commits/main/discussions/${COMMIT_DISCUSSION}`, arrange: commitNote, expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'POST /projects/:id/repository/commits/:commit_id/discussions', path: '/projects/20/repository/commits/main/discussions', body: { body: 'matrix' }, expect: [401, 201, 201, 201, 201, 201, 201, 201, 201, S] },
  { key: 'GET /projects/:id/repository/commits/:commit_id/discussions/:discussion_id/notes', path: `/projects/20/repository/commits/main/discussions/${COMMIT_DISCUSSION}/notes`, arrange: commitNote, expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'POST /projects/:id/repository/commits/:commit_id/discussions/:discussion_id/notes', path: `/projects/20/repository/commits/main/discussions/${COMMIT_DISCUSSION}/notes`, arrange: commitNote, body: { body: 'matrix' }, expect: [401, 201, 201, 201, 201, 201, 201, 201, 201, S] },
  { key: 'GET /projects/:id/repository/commits/:commit_id/discussions/:discussion_id/notes/:note_id', path: `/projects/20/repository/commits/main/discussions/${COMMIT_DISCUSSION}/notes/9001`, arrange: commitNote, expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'PUT /projects/:id/repository/commits/:commit_id/discussions/:discussion_id/notes/:note_id', path: `/projects/20/repository/commits/main/discussions/${COMMIT_DISCUSSION}/notes/9001`, arrange: commitNote, body: { body: 'matrix' }, expect: [401, 403, 200, 403, 200, 200, 403, 200, 403, S] },
  { key: 'DELETE /projects/:id/repository/commits/:commit_id/discussions/:discussion_id/notes/:note_id', path: `/projects/20/repository/commits/main/discussions/${COMMIT_DISCUSSION}/notes/9001`, arrange: commitNote, expect: [401, 403, 204, 403, 204, 204, 403, 204, 403, S] },
  // --- snippets (issue 34 item 3): 600 is nora's private personal snippet, 601 devon's internal
  // snippet of project 20 (public). Personal changes are the author's alone (`snippets_for_current_user`,
  // administrators too get 404); project snippets: read with the project and the snippet's visibility,
  // create Reporter+, change author or Maintainer+. gitlab: lib/api/snippets.rb, project_snippets.rb,
  // app/policies/project_snippet_policy.rb (13.12).
  { key: 'GET /snippets', path: '/snippets', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /snippets/public', path: '/snippets/public', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /snippets/:id', path: '/snippets/600', expect: [404, 404, 404, 404, 404, 404, 200, 200, 200, 404], notFound: SNIPPET_404 },
  { key: 'POST /snippets', path: '/snippets', body: SNIPPET_BODY, expect: [401, 201, 201, 201, 201, 201, 201, 201, 201, S] },
  { key: 'PUT /snippets/:id', path: '/snippets/600', body: { title: 'matrix' }, expect: [401, 404, 404, 404, 404, 404, 200, 404, 200, S], notFound: SNIPPET_404 },
  { key: 'DELETE /snippets/:id', path: '/snippets/600', expect: [401, 404, 404, 404, 404, 404, 204, 404, 204, S], notFound: SNIPPET_404 },
  { key: 'GET /snippets/:id/raw', path: '/snippets/600/raw', arrange: snippetFiles, ok: 'matrix\n', expect: [404, 404, 404, 404, 404, 404, 200, 200, 200, 404], notFound: SNIPPET_404 },
  { key: 'GET /snippets/:id/files/:ref/:file_path/raw', path: '/snippets/600/files/master/aliases.sh/raw', arrange: snippetFiles, ok: 'matrix\n', expect: [404, 404, 404, 404, 404, 404, 200, 200, 200, 404], notFound: SNIPPET_404 },
  { key: 'GET /snippets/:id/user_agent_detail', path: '/snippets/600/user_agent_detail', arrange: snippetExtras, expect: [401, 403, 403, 403, 403, 403, 403, 200, 403, 403] },
  { key: 'GET /projects/:id/snippets', path: '/projects/20/snippets', expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/snippets', path: '/projects/21/snippets', expect: [404, 200, 200, 200, 200, 200, 404, 200, 404, 200] },
  { key: 'GET /projects/:id/snippets/:snippet_id', path: '/projects/20/snippets/601', expect: [404, 200, 200, 200, 200, 200, 200, 200, 200, 200], notFound: { message: '404 Not found' } },
  { key: 'POST /projects/:id/snippets', path: '/projects/20/snippets', body: { ...SNIPPET_BODY, visibility: 'private' }, expect: [401, 403, 201, 201, 201, 201, 403, 201, 403, S] },
  { key: 'PUT /projects/:id/snippets/:snippet_id', path: '/projects/20/snippets/601', body: { title: 'matrix' }, expect: [401, 403, 403, 200, 200, 200, 403, 200, 403, S] },
  { key: 'DELETE /projects/:id/snippets/:snippet_id', path: '/projects/20/snippets/601', expect: [401, 403, 403, 204, 204, 204, 403, 204, 403, S] },
  { key: 'GET /projects/:id/snippets/:snippet_id/raw', path: '/projects/20/snippets/601/raw', arrange: snippetFiles, ok: 'matrix\n', expect: [404, 200, 200, 200, 200, 200, 200, 200, 200, 200], notFound: SNIPPET_404 },
  { key: 'GET /projects/:id/snippets/:snippet_id/files/:ref/:file_path/raw', path: '/projects/20/snippets/601/files/master/deploy.sh/raw', arrange: snippetFiles, ok: 'matrix\n', expect: [404, 200, 200, 200, 200, 200, 200, 200, 200, 200], notFound: SNIPPET_404 },
  { key: 'GET /projects/:id/snippets/:snippet_id/user_agent_detail', path: '/projects/20/snippets/601/user_agent_detail', arrange: snippetExtras, expect: [401, 403, 403, 403, 403, 403, 403, 200, 403, 403] },
  { key: 'GET /projects/:id/snippets/:noteable_id/notes', path: '/projects/20/snippets/601/notes', arrange: snippetExtras, expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/snippets/:noteable_id/notes/:note_id', path: '/projects/20/snippets/601/notes/9800', arrange: snippetExtras, expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'POST /projects/:id/snippets/:noteable_id/notes', path: '/projects/20/snippets/601/notes', body: { body: 'matrix' }, expect: [401, 201, 201, 201, 201, 201, 201, 201, 201, S] },
  { key: 'PUT /projects/:id/snippets/:noteable_id/notes/:note_id', path: '/projects/20/snippets/601/notes/9800', arrange: snippetExtras, body: { body: 'matrix' }, expect: [401, 403, 403, 200, 200, 200, 403, 200, 403, S] },
  { key: 'DELETE /projects/:id/snippets/:noteable_id/notes/:note_id', path: '/projects/20/snippets/601/notes/9800', arrange: snippetExtras, expect: [401, 403, 403, 204, 204, 204, 403, 204, 403, S] },
  { key: 'GET /projects/:id/snippets/:noteable_id/discussions', path: '/projects/20/snippets/601/discussions', arrange: snippetExtras, expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/snippets/:noteable_id/discussions/:discussion_id', path: `/projects/20/snippets/601/discussions/${SNIPPET_DISCUSSION}`, arrange: snippetExtras, expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'POST /projects/:id/snippets/:noteable_id/discussions', path: '/projects/20/snippets/601/discussions', body: { body: 'matrix' }, expect: [401, 201, 201, 201, 201, 201, 201, 201, 201, S] },
  { key: 'GET /projects/:id/snippets/:noteable_id/discussions/:discussion_id/notes', path: `/projects/20/snippets/601/discussions/${SNIPPET_DISCUSSION}/notes`, arrange: snippetExtras, expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'POST /projects/:id/snippets/:noteable_id/discussions/:discussion_id/notes', path: `/projects/20/snippets/601/discussions/${SNIPPET_DISCUSSION}/notes`, arrange: snippetExtras, body: { body: 'matrix' }, expect: [401, 201, 201, 201, 201, 201, 201, 201, 201, S] },
  { key: 'GET /projects/:id/snippets/:noteable_id/discussions/:discussion_id/notes/:note_id', path: `/projects/20/snippets/601/discussions/${SNIPPET_DISCUSSION}/notes/9800`, arrange: snippetExtras, expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'PUT /projects/:id/snippets/:noteable_id/discussions/:discussion_id/notes/:note_id', path: `/projects/20/snippets/601/discussions/${SNIPPET_DISCUSSION}/notes/9800`, arrange: snippetExtras, body: { body: 'matrix' }, expect: [401, 403, 403, 200, 200, 200, 403, 200, 403, S] },
  { key: 'DELETE /projects/:id/snippets/:noteable_id/discussions/:discussion_id/notes/:note_id', path: `/projects/20/snippets/601/discussions/${SNIPPET_DISCUSSION}/notes/9800`, arrange: snippetExtras, expect: [401, 403, 403, 204, 204, 204, 403, 204, 403, S] },
  { key: 'GET /projects/:id/snippets/:snippet_id/award_emoji', path: '/projects/20/snippets/601/award_emoji', arrange: snippetExtras, expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/snippets/:snippet_id/award_emoji/:award_id', path: '/projects/20/snippets/601/award_emoji/9801', arrange: snippetExtras, expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'POST /projects/:id/snippets/:snippet_id/award_emoji', path: '/projects/20/snippets/601/award_emoji', body: { name: 'tada' }, expect: [401, 201, 201, 201, 201, 201, 201, 201, 201, S] },
  { key: 'DELETE /projects/:id/snippets/:snippet_id/award_emoji/:award_id', path: '/projects/20/snippets/601/award_emoji/9801', arrange: snippetExtras, expect: [401, 401, 401, 204, 401, 401, 401, 204, 401, S] },
  { key: 'GET /projects/:id/snippets/:snippet_id/notes/:note_id/award_emoji', path: '/projects/20/snippets/601/notes/9800/award_emoji', arrange: snippetExtras, expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/snippets/:snippet_id/notes/:note_id/award_emoji/:award_id', path: '/projects/20/snippets/601/notes/9800/award_emoji/9802', arrange: snippetExtras, expect: [401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'POST /projects/:id/snippets/:snippet_id/notes/:note_id/award_emoji', path: '/projects/20/snippets/601/notes/9800/award_emoji', arrange: snippetExtras, body: { name: 'tada' }, expect: [401, 201, 201, 201, 201, 201, 201, 201, 201, S] },
  { key: 'DELETE /projects/:id/snippets/:snippet_id/notes/:note_id/award_emoji/:award_id', path: '/projects/20/snippets/601/notes/9800/award_emoji/9802', arrange: snippetExtras, expect: [401, 401, 401, 204, 401, 401, 401, 204, 401, S] },
  // --- end snippets ---
  // --- wikis (issue 34 item 4): reads with the project (anonymous too on a public one), writes
  // Developer+, delete Maintainer+, a 403 (never 401) to anonymous writers. gitlab: lib/api/wikis.rb.
  { key: 'GET /projects/:id/wikis', path: '/projects/20/wikis', arrange: wikiHome, expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/wikis', path: '/projects/21/wikis', expect: [404, 200, 200, 200, 200, 200, 404, 200, 404, 200] },
  { key: 'GET /projects/:id/wikis/:slug', path: '/projects/20/wikis/home', arrange: wikiHome, expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'POST /projects/:id/wikis', path: '/projects/20/wikis', body: { title: 'matrix', content: 'matrix' }, expect: [403, 403, 403, 201, 201, 201, 403, 201, 403, S] },
  { key: 'PUT /projects/:id/wikis/:slug', path: '/projects/20/wikis/home', arrange: wikiHome, body: { content: 'matrix' }, expect: [403, 403, 403, 200, 200, 200, 403, 200, 403, S] },
  { key: 'DELETE /projects/:id/wikis/:slug', path: '/projects/20/wikis/home', arrange: wikiHome, expect: [403, 403, 403, 403, 204, 204, 403, 204, 403, S] },
  { key: 'POST /projects/:id/wikis/attachments', path: '/projects/20/wikis/attachments', multipart: wikiFile, expect: [403, 403, 403, 201, 201, 201, 403, 201, 403, S] },
  // --- end wikis ---
  // ---- uploads (issue 34 item 1; gitlab: lib/api/projects.rb `post ":id/uploads"`: `user_project` only,
  // so any reader of the project may upload, a non-member of a public one too) ---------------------------
  { key: 'POST /projects/:id/uploads', path: '/projects/20/uploads', multipart: uploadForm, expect: [401, 201, 201, 201, 201, 201, 201, 201, 201, S] },
  { key: 'POST /projects/:id/uploads', path: '/projects/21/uploads', multipart: uploadForm, expect: [401, 201, 201, 201, 201, 201, 404, 201, 404, S] },
  // ---- end uploads -------------------------------------------------------------------------------------
  // ---- merge request review (issue 34 item 2; gitlab: lib/api/merge_request_approvals.rb,
  // merge_request_diffs.rb, merge_requests.rb; approve_merge_request = update_merge_request: Developer+,
  // the author or an assignee). acme/website !1 is devon's; nobody has approved it. ---------------------
  { key: 'GET /projects/:id/merge_requests/:merge_request_iid/approvals', path: '/projects/20/merge_requests/1/approvals', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'POST /projects/:id/merge_requests/:merge_request_iid/approve', path: '/projects/20/merge_requests/1/approve', expect: [401, 403, 403, 201, 201, 201, 403, 201, 403, S] },
  { key: 'POST /projects/:id/merge_requests/:merge_request_iid/unapprove', path: '/projects/20/merge_requests/1/unapprove', expect: [401, 403, 403, 404, 404, 404, 403, 404, 403, S], notFound: { message: '404 Not Found' } },
  { key: 'POST /projects/:id/merge_requests/:merge_request_iid/unapprove', path: '/projects/20/merge_requests/1/unapprove', arrange: maxApproved, expect: [401, 403, 403, 404, 201, 404, 403, 404, 403, S], notFound: { message: '404 Not Found' } },
  { key: 'GET /projects/:id/merge_requests/:merge_request_iid/versions', path: '/projects/20/merge_requests/1/versions', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/merge_requests/:merge_request_iid/versions/:version_id', path: '/projects/20/merge_requests/1/versions/9500', arrange: mrVersion, expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  // The website's CI definition has no job for merge request pipelines: who may create pipelines
  // (Developer+) gets that refusal, anyone else who may read the merge request the permission one.
  {
    key: 'POST /projects/:id/merge_requests/:merge_request_iid/pipelines',
    path: '/projects/20/merge_requests/1/pipelines',
    expect: [401, 400, 400, 400, 400, 400, 400, 400, 400, S],
    badRequest: (caller: Caller) => ({ message: { base: [['developer', 'maintainer', 'owner', 'admin'].includes(caller) ? 'No stages / jobs for this pipeline.' : 'Insufficient permissions to create a new pipeline'] } }),
  },
  // ---- end merge request review ------------------------------------------------------------------------
  // Environments (issue 36 item 3; lib/api/environments.rb): `authenticate!`, `read_environment`
  // Reporter+, writes Developer+, delete only a stopped environment (1201).
  { key: 'GET /projects/:id/environments', path: '/projects/20/environments', expect: [401, 403, 200, 200, 200, 200, 403, 200, 403, 200] },
  { key: 'GET /projects/:id/environments', path: '/projects/21/environments', expect: [401, 403, 200, 200, 200, 200, 404, 200, 404, 200] },
  { key: 'GET /projects/:id/environments/:environment_id', path: '/projects/20/environments/1200', expect: [401, 403, 200, 200, 200, 200, 403, 200, 403, 200] },
  { key: 'POST /projects/:id/environments', path: '/projects/20/environments', body: { name: 'matrix' }, expect: [401, 403, 403, 201, 201, 201, 403, 201, 403, S] },
  { key: 'PUT /projects/:id/environments/:environment_id', path: '/projects/20/environments/1200', body: { external_url: 'https://matrix.example.com' }, expect: [401, 403, 403, 200, 200, 200, 403, 200, 403, S] },
  { key: 'DELETE /projects/:id/environments/:environment_id', path: '/projects/20/environments/1201', expect: [401, 403, 403, 204, 204, 204, 403, 204, 403, S] },
  { key: 'POST /projects/:id/environments/:environment_id/stop', path: '/projects/20/environments/1200/stop', expect: [401, 403, 403, 200, 200, 200, 403, 200, 403, S] },
  // Deployments (issue 36 item 3; lib/api/deployments.rb): `authenticate!`, `read_deployment`
  // Reporter+, `create_deployment`/`update_deployment` Developer+; 1300 was made through the API.
  { key: 'GET /projects/:id/deployments', path: '/projects/20/deployments', expect: [401, 403, 200, 200, 200, 200, 403, 200, 403, 200] },
  { key: 'GET /projects/:id/deployments', path: '/projects/21/deployments', expect: [401, 403, 200, 200, 200, 200, 404, 200, 404, 200] },
  { key: 'GET /projects/:id/deployments/:deployment_id', path: '/projects/20/deployments/1300', expect: [401, 403, 200, 200, 200, 200, 403, 200, 403, 200] },
  { key: 'POST /projects/:id/deployments', path: '/projects/20/deployments', body: { environment: 'matrix', sha: 'fd7d40d21b67d3419c468f3cd80559f888c6ff31', ref: 'main', tag: false, status: 'success' }, expect: [401, 403, 403, 201, 201, 201, 403, 201, 403, S] },
  { key: 'PUT /projects/:id/deployments/:deployment_id', path: '/projects/20/deployments/1300', body: { status: 'failed' }, expect: [401, 403, 403, 200, 200, 200, 403, 200, 403, S] },
  { key: 'GET /projects/:id/deployments/:deployment_id/merge_requests', path: '/projects/20/deployments/1300/merge_requests', expect: [401, 403, 200, 200, 200, 200, 403, 200, 403, 200] },
  // Job artifacts (issue 36 item 5; lib/api/job_artifacts.rb): reads `read_build` (acme/website's
  // pipelines are public), keep `update_build` on the job (main is protected: Maintainer+), delete
  // `destroy_artifacts` (Maintainer+), both after `authenticate_non_get!`.
  { key: 'GET /projects/:id/jobs/artifacts/:ref_name/download', path: '/projects/20/jobs/artifacts/main/download?job=compile', arrange: jobArtifacts, ok: 'binary', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/jobs/artifacts/:ref_name/raw/*artifact_path', path: '/projects/20/jobs/artifacts/main/raw/a.txt?job=compile', arrange: jobArtifacts, ok: 'binary', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/jobs/:job_id/artifacts', path: '/projects/20/jobs/2005/artifacts', arrange: jobArtifacts, ok: 'binary', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/jobs/:job_id/artifacts/*artifact_path', path: '/projects/20/jobs/2005/artifacts/a.txt', arrange: jobArtifacts, ok: 'binary', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'POST /projects/:id/jobs/:job_id/artifacts/keep', path: '/projects/20/jobs/2005/artifacts/keep', arrange: jobArtifacts, expect: [401, 403, 403, 403, 200, 200, 403, 200, 403, S] },
  { key: 'DELETE /projects/:id/jobs/:job_id/artifacts', path: '/projects/20/jobs/2005/artifacts', arrange: jobArtifacts, expect: [401, 403, 403, 403, 204, 204, 403, 204, 403, S] },
  // The package registry (issue 36 item 6; lib/api/project_packages.rb, group_packages.rb,
  // package_files.rb, generic_packages.rb): `read_package` Reporter+ or public access, `create_package`
  // Developer+, `destroy_package` Maintainer+; a generic upload `authenticate_non_get!` first.
  { key: 'GET /projects/:id/packages', path: '/projects/20/packages', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/packages', path: '/projects/21/packages', expect: [404, 403, 200, 200, 200, 200, 404, 200, 404, 200] },
  { key: 'GET /projects/:id/packages/:package_id', path: '/projects/20/packages/1100', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /projects/:id/packages/:package_id', path: '/projects/21/packages/1102', expect: [404, 403, 200, 200, 200, 200, 404, 200, 404, 200] },
  { key: 'DELETE /projects/:id/packages/:package_id', path: '/projects/20/packages/1100', expect: [403, 403, 403, 403, 204, 204, 403, 204, 403, S] },
  { key: 'GET /projects/:id/packages/:package_id/package_files', path: '/projects/20/packages/1100/package_files', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'GET /groups/:id/packages', path: '/groups/10/packages', expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { key: 'PUT /projects/:id/packages/generic/:package_name/:package_version/:file_name', path: '/projects/20/packages/generic/matrix/1.0.0/matrix.txt', body: { any: 'bytes' }, expect: [401, 403, 403, 201, 201, 201, 403, 201, 403, S] },
  { key: 'GET /projects/:id/packages/generic/:package_name/:package_version/:file_name', path: '/projects/21/packages/generic/api-client/2.0.0/client.zip', ok: 'binary', expect: [404, 403, 200, 200, 200, 200, 404, 200, 404, 200] },
]

/**
 * Cells where today's code disagrees with GitLab. The row keeps GitLab's answer; each such cell is
 * checked by an `it.fails` of its own, titled KNOWN DISAGREEMENT, which turns red once the code is
 * fixed: then delete the entry here.
 */
// None today: the read_api scope body (gitlab-behaviour.md §1.5) was the last one, fixed in core/auth.ts.
const DISAGREEMENTS: { caller: Caller; applies: (cell: Cell) => boolean; today: string; source: string }[] = []

/** The known disagreement for a cell, if any. */
function disagreement(row: Row, caller: Caller): (typeof DISAGREEMENTS)[number] | undefined {
  const cell = row.expect[COLUMNS.indexOf(caller)]!
  return DISAGREEMENTS.find((d) => d.caller === caller && d.applies(cell))
}

/** GitLab's body for an error status in a row. */
function errorBody(row: Row, cell: Cell, caller: Caller): unknown {
  if (cell === S) {
    // The scopes registered for the endpoint, listed whether or not their `if:` holds: a write gets
    // "api read_api" too (gitlab-behaviour.md §1.5; gitlab: lib/api/api_guard.rb, lib/api/api.rb).
    return {
      error: 'insufficient_scope',
      error_description: 'The request requires higher privileges than provided by the access token.',
      scope: 'api read_api',
    }
  }
  if (cell === 400) return typeof row.badRequest === 'function' ? row.badRequest(caller) : row.badRequest
  if (cell === 401) return { message: '401 Unauthorized' }
  if (cell === 403) return row.forbidden ?? { message: '403 Forbidden' }
  if (cell === 404) return row.notFound ?? { message: row.path.startsWith('/groups/') ? '404 Group Not Found' : '404 Project Not Found' }
  throw new Error(`no error body known for ${cell}`)
}

/** What a caller must see: the status, and the exact body for an error or an empty one for 204/304. */
function expected(row: Row, cell: Cell, caller: Caller): { status: number; body: unknown } {
  const status = cell === S ? 403 : cell
  if (status === 204 || status === 304) return { status, body: undefined }
  if (status < 400) return { status, body: row.ok ?? 'JSON' }
  return { status, body: errorBody(row, cell, caller) }
}

/** The status and body of a response, in the shape of {@link expected}: success bodies only as "JSON". */
function observed(res: ApiResponse): { status: number; body: unknown } {
  const json = res.headers.get('content-type') === 'application/json' && typeof res.body === 'object' && res.body !== null
  // A download (`application/octet-stream`, a repository archive; `application/x-tar`, a snapshot)
  // is compared by kind, not bytes.
  const binary = ['application/octet-stream', 'application/x-tar'].includes(res.headers.get('content-type') ?? '')
  if (res.status < 400 && res.status !== 204 && res.status !== 304) return { status: res.status, body: json ? 'JSON' : binary ? 'binary' : res.text }
  return { status: res.status, body: res.status >= 400 && !json ? `not JSON: ${res.text}` : res.body }
}

/** Sends a row's request as one caller, from the freshly loaded scenario; a refusal must change nothing. */
async function call(api: Api, sim: Simulator, row: Row, caller: Caller): Promise<{ status: number; body: unknown }> {
  sim.reset()
  row.arrange?.(sim)
  const before = JSON.stringify(sim.db.dump())
  const options = CALLERS[caller]
  const res = await api.request(methodOf(row.key), row.path, { ...options, ...(row.headers ? { headers: { ...(options as { headers?: Record<string, string> }).headers, ...row.headers } } : {}), body: row.body, multipart: row.multipart?.() })
  const seen = observed(res)
  if (res.status >= 300) expect(JSON.stringify(sim.db.dump()), `${caller}: a refused ${row.key} changed the store`).toBe(before)
  return seen
}

/** `'PUT /projects/:id/labels'` → `'PUT'`. */
function methodOf(key: string): string {
  return key.slice(0, key.indexOf(' '))
}

/** The route that serves `path` for `method`: of the templates that match, the one with most static segments (STYLE.md §3). */
function servingRoute(routes: readonly { key: string; method: string; path: string }[], method: string, path: string): string | undefined {
  const segments = path.split('?')[0]!.split('/')
  const candidates = routes.filter((r) => {
    const parts = r.path.split('/')
    // A `*name` segment (a glob: `…/artifacts/*artifact_path`) takes the rest of the path, one segment or more.
    const glob = parts.findIndex((p) => p.startsWith('*'))
    const fixed = glob < 0 ? parts : parts.slice(0, glob)
    const fits = glob < 0 ? parts.length === segments.length : segments.length >= parts.length
    return r.method === method && fits && fixed.every((p, i) => p.startsWith(':') || p === segments[i])
  })
  const statics = (r: { path: string }): number => r.path.split('/').filter((p) => p !== '' && !p.startsWith(':')).length
  return candidates.sort((a, b) => statics(b) - statics(a))[0]?.key
}

const title = (row: Row): string => `${row.key} as ${row.path}`

contract('authorization matrix', {}, ({ api, sim }) => {
  it('has a row for every registered route, and no row for a route that is not registered', () => {
    const keys = sim().routes.map((r) => r.key)
    const covered = new Set(ROWS.map((r) => r.key))
    expect(keys.filter((k) => !covered.has(k)), 'routes with no row: add one to ROWS').toEqual([])
    expect([...covered].filter((k) => !keys.includes(k)), 'rows for unregistered routes').toEqual([])
  })

  it('sends every row to the route it is for', () => {
    const wrong = ROWS.filter((row) => servingRoute(sim().routes, methodOf(row.key), row.path) !== row.key)
    expect(wrong.map(title)).toEqual([])
  })

  it.each(ROWS.map((row) => [title(row), row] as const))('%s', async (_title, row) => {
    const got: Record<string, unknown> = {}
    const want: Record<string, unknown> = {}
    for (const [i, caller] of COLUMNS.entries()) {
      if (disagreement(row, caller)) continue
      got[caller] = await call(api, sim(), row, caller)
      want[caller] = expected(row, row.expect[i]!, caller)
    }
    expect(got).toEqual(want)
  })

  for (const row of ROWS) {
    for (const caller of COLUMNS) {
      const known = disagreement(row, caller)
      if (!known) continue
      it.fails(`KNOWN DISAGREEMENT with GitLab: ${title(row)} as ${caller}: ${known.today}`, async () => {
        expect(await call(api, sim(), row, caller), known.source).toEqual(expected(row, row.expect[COLUMNS.indexOf(caller)]!, caller))
      })
    }
  }
})
