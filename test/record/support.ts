/**
 * Shared pieces of the record/replay tests: a local upstream (a fakelab server on the default
 * scenario; never the network), the secrets its users hold, and one scripted session of varied
 * calls made through a real client, @gitbeaker/rest.
 */
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Gitlab } from '@gitbeaker/rest'
import { createSimulator } from '../../src/index.js'
import { loadDefaultScenario, startServer, type RunningServer } from '../../src/node.js'

export const ROOT = fileURLToPath(new URL('../../', import.meta.url))
export const CASSETTE_DIR = join(ROOT, 'fixtures', 'cassettes')
/** The committed cassette of {@link gitbeakerSession}. */
export const SESSION_CASSETTE = join(CASSETTE_DIR, 'gitbeaker-session.har.json')

/** Every secret the session sends or the upstream can reveal: none may appear in a cassette. */
export const SESSION_SECRETS = ['glpat-root-fakelab', 'glpat-devon-fakelab', 'glpat-nora-fakelab', 'glpat-max-fakelab'] as const

/** Every `*.har.json` under fixtures/cassettes. */
export function committedCassettes(): string[] {
  if (!existsSync(CASSETTE_DIR)) return []
  return readdirSync(CASSETTE_DIR).filter((name) => name.endsWith('.har.json')).map((name) => join(CASSETTE_DIR, name))
}

/** A fakelab server on the default scenario: the upstream "GitLab" of these tests. */
export async function startUpstream(): Promise<RunningServer> {
  return startServer(createSimulator({ scenario: await loadDefaultScenario() }), { port: 0 })
}

/**
 * Outcomes with every secret and every redaction placeholder replaced by `<secret>`, and the
 * upstream's origin by `<origin>`: a replayed session sees the placeholder where the recorded one
 * saw the secret, and the committed cassette's origin is fixed (see fixture.test.ts).
 */
export function withoutSecrets(outcomes: CallOutcome[]): unknown {
  const text = JSON.stringify(outcomes)
    .replace(/\[REDACTED-\d+\]|\bGR1348941[A-Za-z0-9_-]+|\bglpat-[A-Za-z0-9_-]+/g, '<secret>')
    .replace(/http:\/\/(?:127\.0\.0\.1:\d+|gitlab\.example\.com)/g, '<origin>')
    .replace(/git@(?:127\.0\.0\.1|gitlab\.example\.com):/g, 'git@<host>:')
  return JSON.parse(text) as unknown
}

/** The token each user of the session sends. */
export interface SessionTokens {
  root: string
  devon: string
  nora: string
  max: string
}

/** The default scenario's tokens. */
export const DEFAULT_TOKENS: SessionTokens = { root: 'glpat-root-fakelab', devon: 'glpat-devon-fakelab', nora: 'glpat-nora-fakelab', max: 'glpat-max-fakelab' }

/** What one call of the session gave: its result, or the HTTP status and body of its error. */
export interface CallOutcome {
  call: string
  result?: unknown
  error?: { status: number | undefined; body: unknown }
}

async function outcome(call: string, run: () => Promise<unknown>): Promise<CallOutcome> {
  try {
    return { call, result: await run() }
  } catch (error) {
    const cause = (error as { cause?: { response?: Response; description?: unknown } }).cause
    return { call, error: { status: cause?.response?.status, body: cause?.description } }
  }
}

/**
 * The recorded session: 39 requests through @gitbeaker/rest (three tokens, sudo, pagination,
 * label/milestone/freeze-period life cycles with repeated identical GETs in between, 304/404s)
 * plus three raw calls that put the token in the query string. Everything runs in sequence, so the
 * same upstream always gives the same answers.
 * @param host the GitLab URL to talk to (an upstream, a recorder, or a replaying door).
 * @param tokens the token each user sends (an imported scenario knows them by placeholder).
 */
export async function gitbeakerSession(host: string, tokens: SessionTokens = DEFAULT_TOKENS): Promise<CallOutcome[]> {
  const root = new Gitlab({ host, token: tokens.root })
  const devon = new Gitlab({ host, token: tokens.devon })
  const nora = new Gitlab({ host, token: tokens.nora })
  const max = encodeURIComponent(tokens.max)
  const out: CallOutcome[] = []
  const step = async (call: string, run: () => Promise<unknown>): Promise<unknown> => {
    const o = await outcome(call, run)
    out.push(o)
    return o.result
  }
  await step('root GET /user', () => root.Users.showCurrentUser())
  await step('root GET /users/4', () => root.Users.show(4))
  await step('root GET /projects (all pages)', () => root.Projects.all({ perPage: 2, orderBy: 'id', sort: 'asc' }))
  await step('root GET /projects/20', () => root.Projects.show(20))
  await step('root GET /projects/acme%2Fplatform%2Fapi', () => root.Projects.show('acme/platform/api'))
  await step('root GET /groups', () => root.Groups.all())
  await step('root GET /groups/acme', () => root.Groups.show('acme'))
  await step('root GET /groups/11', () => root.Groups.show(11))
  await step('root GET /projects/20/labels', () => root.ProjectLabels.all(20))
  await step('root GET /projects/20/labels/frontend', () => root.ProjectLabels.show(20, 'frontend'))
  await step('root GET /groups/acme/labels', () => root.GroupLabels.all('acme'))
  const label = (await step('root POST /projects/20/labels', () =>
    root.ProjectLabels.create(20, 'recorded', '#123456', { description: 'made while recording' }),
  )) as { id: number }
  await step('root PUT /projects/20/labels/:id', () => root.ProjectLabels.edit(20, label.id, { color: '#654321' }))
  // gitbeaker 43.8's ProjectLabels.subscribe posts to the wrong path, so these go through its
  // generic requester (whose answers carry transport headers: keep the status and body).
  const raw = async (call: Promise<{ status: number; body: unknown }>) => {
    const { status, body } = await call
    return { status, body }
  }
  await step('root POST subscribe', () => raw(root.requester.post(`projects/20/labels/${label.id}/subscribe`, {})))
  await step('root POST subscribe again (304)', () => raw(root.requester.post(`projects/20/labels/${label.id}/subscribe`, {})))
  await step('root GET /projects/20/labels (after create)', () => root.ProjectLabels.all(20))
  await step('root DELETE /projects/20/labels/:id', () => root.ProjectLabels.remove(20, label.id))
  await step('root GET /projects/20/labels (after delete)', () => root.ProjectLabels.all(20))
  await step('root GET /groups/acme/milestones', () => root.GroupMilestones.all('acme'))
  await step('root GET /groups/acme/milestones/200', () => root.GroupMilestones.show('acme', 200))
  const milestone = (await step('root POST /groups/acme/milestones', () =>
    root.GroupMilestones.create('acme', 'v3.0', { dueDate: '2021-12-31', description: 'recorded' }),
  )) as { id: number }
  await step('root PUT /groups/acme/milestones/:id (close)', () => root.GroupMilestones.edit('acme', milestone.id, { stateEvent: 'close' }))
  await step('root GET milestone issues', () => raw(root.requester.get('groups/acme/milestones/200/issues')))
  await step('root GET milestone merge requests', () => raw(root.requester.get('groups/acme/milestones/200/merge_requests')))
  await step('root DELETE /groups/acme/milestones/:id', () => root.GroupMilestones.remove('acme', milestone.id))
  await step('root GET /projects/20/freeze_periods', () => root.FreezePeriods.all(20))
  await step('root GET /projects/20/freeze_periods/300', () => root.FreezePeriods.show(20, 300))
  const period = (await step('root POST /projects/20/freeze_periods', () =>
    root.FreezePeriods.create(20, '0 1 * * *', '0 2 * * *', { cronTimezone: 'Europe/Berlin' }),
  )) as { id: number }
  await step('root PUT /projects/20/freeze_periods/:id', () => root.FreezePeriods.edit(20, period.id, { freezeEnd: '0 3 * * *' }))
  await step('root DELETE /projects/20/freeze_periods/:id', () => root.FreezePeriods.remove(20, period.id))
  await step('root GET /projects/20/freeze_periods (after delete)', () => root.FreezePeriods.all(20))
  await step('root GET /projects/9999 (404)', () => root.Projects.show(9999))
  await step('root GET /user as devon (sudo)', () => root.Users.showCurrentUser({ sudo: 'devon' }))
  await step('devon GET /user', () => devon.Users.showCurrentUser())
  await step('devon GET /projects/21', () => devon.Projects.show(21))
  await step('devon GET /projects/acme%2Fplatform%2Fapi/labels', () => devon.ProjectLabels.all('acme/platform/api'))
  await step('nora GET /user', () => nora.Users.showCurrentUser())
  await step('nora GET /projects/24 (404)', () => nora.Projects.show(24))
  // The token in the query string: GitLab repeats it in the `Link` header of a paginated answer.
  await step('max GET /user?private_token=…', async () => {
    const res = await fetch(`${host}/api/v4/user?private_token=${max}`)
    return { status: res.status, body: await res.json() }
  })
  await step('max GET /projects?private_token=…', async () => {
    const res = await fetch(`${host}/api/v4/projects?per_page=1&private_token=${max}`)
    // The door's origin and the (redacted on replay) token are not part of the outcome.
    const link = res.headers.get('link')?.replace(/<[^>]*?\/api\/v4/g, '<').replace(/private_token=[^&>]*/g, 'private_token=…')
    return { status: res.status, link, body: await res.json() }
  })
  await step('max GET /groups/acme%2Fplatform?private_token=…', async () => {
    const res = await fetch(`${host}/api/v4/groups/acme%2Fplatform?private_token=${max}`)
    return { status: res.status, body: await res.json() }
  })
  return out
}
