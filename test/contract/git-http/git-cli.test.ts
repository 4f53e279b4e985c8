/**
 * git's smart HTTP against the node:http door with the real `git` CLI (issue 35): clone (full,
 * shallow, protocol v2 and v0), fetch after an API commit, push a branch, a refused push to a
 * protected branch, branch deletion, tags; each checked through the API afterwards.
 */
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createSimulator, type Simulator, type SimulatorSnapshot } from '../../../src/index.js'
import { loadDefaultScenario, startServer } from '../../../src/node.js'
import { subscribe } from '../../../src/rules/events.js'

const run = promisify(execFile)
const BLANK = '0'.repeat(40)
const GIT_ENV = { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1', HOME: tmpdir(), GIT_AUTHOR_NAME: 'Elena', GIT_AUTHOR_EMAIL: 'elena@example.com', GIT_COMMITTER_NAME: 'Elena', GIT_COMMITTER_EMAIL: 'elena@example.com', GIT_AUTHOR_DATE: '2021-04-01T12:00:00Z', GIT_COMMITTER_DATE: '2021-04-01T12:00:00Z' }

/** Runs git; its stderr without the spaces git pads `remote:` lines with. */
async function git(cwd: string, ...args: string[]): Promise<{ stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run('git', args, { cwd, env: GIT_ENV })
    return { stdout, stderr: stderr.replace(/ +$/gm, '') }
  } catch (error) {
    const e = error as { stderr: string }
    e.stderr = e.stderr.replace(/ +$/gm, '')
    throw e
  }
}

/** One pkt-line of a text (its length in four hex digits, then the text). */
function pktLine(text: string): string {
  return `${(new TextEncoder().encode(text).length + 4).toString(16).padStart(4, '0')}${text}`
}

/** Runs git expecting it to fail; returns its stderr. */
async function gitFails(cwd: string, ...args: string[]): Promise<string> {
  try {
    await git(cwd, ...args)
  } catch (error) {
    return (error as { stderr: string }).stderr
  }
  throw new Error(`git ${args.join(' ')} succeeded`)
}

describe('git over HTTP with the git CLI [node]', () => {
  let sim: Simulator
  let snapshot: SimulatorSnapshot
  let url: string
  let close: () => Promise<void> | void
  let dir: string
  const withToken = (user: string, token: string) => url.replace('://', `://${user}:${token}@`)

  beforeAll(async () => {
    const scenario = await loadDefaultScenario()
    // Elena gets a password (the default scenario gives none): git over HTTP accepts it.
    Object.assign(scenario.users!.find((u) => u.username === 'elena')!, { password: 'elena-s3cret' })
    sim = createSimulator({ scenario })
    snapshot = sim.snapshot()
    const server = await startServer(sim, { port: 0 })
    url = server.url
    close = () => server.close()
  })
  /** The `push` facts published: project id, actor and refs moved. */
  let pushes: Array<{ project: number; actor: number | null; refs: Array<{ ref: string; before: string | null; after: string | null }> }> = []
  beforeEach(() => {
    pushes = []
    const unsubscribe = subscribe('push', (_db, fact) => pushes.push({ project: fact.project.id, actor: fact.actorId, refs: [...fact.refs] }))
    sim.restore(snapshot)
    dir = mkdtempSync(join(tmpdir(), 'fakelab-git-'))
    return () => {
      unsubscribe()
      rmSync(dir, { recursive: true, force: true })
    }
  })
  afterAll(() => close())

  const api = async (method: string, path: string, token = 'glpat-root-fakelab', body?: unknown) => {
    const res = await fetch(`${url}/api/v4${path}`, { method, headers: { 'private-token': token, 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) })
    return { status: res.status, body: (await res.json()) as any }
  }

  it.each([['2'], ['0']])('clones acme/website in full anonymously over protocol v%s, with git fsck clean', async (version) => {
    await git(dir, '-c', `protocol.version=${version}`, 'clone', `${url}/acme/website.git`, 'w')
    const w = join(dir, 'w')
    const { body: branch } = await api('GET', '/projects/20/repository/branches/main')
    expect((await git(w, 'rev-parse', 'HEAD')).stdout.trim()).toBe(branch.commit.id)
    expect((await git(w, 'rev-list', '--count', 'HEAD')).stdout.trim()).toBe('6')
    expect((await git(w, 'tag')).stdout.split('\n').filter(Boolean)).toEqual(['v0.9.0', 'v1.0.0'])
    await git(w, 'fsck', '--full', '--strict')
  })

  it.each([['2'], ['0']])('clones with --depth 1 over protocol v%s: one commit, shallow at the tip', async (version) => {
    await git(dir, '-c', `protocol.version=${version}`, 'clone', '--depth', '1', `${url}/acme/website`, 'w')
    const w = join(dir, 'w')
    expect((await git(w, 'rev-list', '--count', 'HEAD')).stdout.trim()).toBe('1')
    expect((await git(w, 'rev-parse', '--is-shallow-repository')).stdout.trim()).toBe('true')
    await git(w, 'fsck')
  })

  it.each([['2'], ['0']])('clones with --filter=blob:none over protocol v%s: no blob of the history, the ones checkout needs fetched by id, the rest on demand', async (version) => {
    const { stderr } = await git(dir, '-c', `protocol.version=${version}`, 'clone', '--filter=blob:none', `${url}/acme/website.git`, 'w')
    expect(stderr).not.toContain('filtering not recognized by server')
    const w = join(dir, 'w')
    expect((await git(w, 'config', 'remote.origin.promisor')).stdout.trim()).toBe('true')
    expect((await git(w, 'config', 'remote.origin.partialclonefilter')).stdout.trim()).toBe('blob:none')
    // Every blob only an older commit's tree holds is missing (`?` in --missing=print).
    const missing = async () => (await git(w, '-c', 'fetch.negotiationAlgorithm=noop', 'rev-list', '--objects', '--all', '--missing=print')).stdout.split('\n').filter((l) => l.startsWith('?')).map((l) => l.slice(1))
    const before = await missing()
    expect(before.length).toBeGreaterThan(0)
    const head = (await git(w, 'ls-tree', '-r', 'HEAD')).stdout.split('\n').filter(Boolean).map((l) => l.split(/\s+/)[2])
    for (const id of head) expect(before).not.toContain(id)
    // Reading an old version fetches its blob lazily, by id, from fakelab.
    const first = (await git(w, 'rev-list', '--max-parents=0', 'HEAD')).stdout.trim()
    const file = (await git(w, 'ls-tree', '--name-only', first)).stdout.split('\n').filter(Boolean)[0]!
    const blob = (await git(w, 'rev-parse', `${first}:${file}`)).stdout.trim()
    const raw = await fetch(`${url}/api/v4/projects/20/repository/blobs/${blob}/raw`)
    expect((await git(w, '-c', `protocol.version=${version}`, 'show', `${first}:${file}`)).stdout).toBe(await raw.text())
    expect(await missing()).not.toContain(blob)
    await git(w, 'fsck')
  })

  it('refuses a filter-spec git cannot parse, as upload-pack dies', async () => {
    const head = (await api('GET', '/projects/20/repository/branches/main')).body.commit.id
    const request = `${pktLine('command=fetch\n')}0001${pktLine(`want ${head}\n`)}${pktLine('filter nonsense:1\n')}${pktLine('done\n')}0000`
    const res = await fetch(`${url}/acme/website.git/git-upload-pack`, { method: 'POST', headers: { 'git-protocol': 'version=2', 'content-type': 'application/x-git-upload-pack-request' }, body: request })
    expect([res.status, await res.text()]).toEqual([400, "invalid filter-spec 'nonsense:1'\n"])
  })

  it.each([['2'], ['0']])('fetches a commit made through the API (protocol v%s)', async (version) => {
    await git(dir, 'clone', `${url}/acme/website.git`, 'w')
    const w = join(dir, 'w')
    const made = await api('POST', '/projects/20/repository/commits', 'glpat-root-fakelab', { branch: 'main', commit_message: 'API commit', actions: [{ action: 'create', file_path: 'api.txt', content: 'from the API\n' }] })
    expect(made.status).toBe(201)
    await git(w, '-c', `protocol.version=${version}`, 'fetch', 'origin')
    expect((await git(w, 'rev-parse', 'origin/main')).stdout.trim()).toBe(made.body.id)
    expect((await git(w, 'show', 'origin/main:api.txt')).stdout).toBe('from the API\n')
    await git(w, 'fsck')
  })

  it('pushes a new branch as a Developer; the API shows it, its commit and a push event', async () => {
    await git(dir, 'clone', `${withToken('elena', 'glpat-elena-fakelab')}/acme/website.git`, 'w2')
    const w = join(dir, 'w2')
    await git(w, 'checkout', '-b', 'feature/git-push')
    writeFileSync(join(w, 'pushed.txt'), 'pushed over git\n')
    await git(w, 'add', 'pushed.txt')
    await git(w, 'commit', '-m', 'Push over git')
    const sha = (await git(w, 'rev-parse', 'HEAD')).stdout.trim()
    const { stderr } = await git(w, 'push', 'origin', 'feature/git-push')
    expect(stderr).toContain('remote: To create a merge request for feature/git-push, visit:')
    expect(stderr).toContain(`remote:   ${url}/acme/website/-/merge_requests/new?merge_request%5Bsource_branch%5D=feature%2Fgit-push`)
    const branch = await api('GET', '/projects/20/repository/branches/feature%2Fgit-push')
    expect(branch.status).toBe(200)
    expect(branch.body.commit).toMatchObject({ id: sha, title: 'Push over git', author_name: 'Elena' })
    const file = await fetch(`${url}/api/v4/projects/20/repository/files/pushed.txt/raw?ref=feature%2Fgit-push`)
    expect([file.status, await file.text()]).toEqual([200, 'pushed over git\n'])
    expect(pushes).toEqual([{ project: 20, actor: 9, refs: [{ ref: 'refs/heads/feature/git-push', before: null, after: sha }] }])
  })

  it("refuses a Developer's push to the protected main with GitLab's message, and changes nothing", async () => {
    await git(dir, 'clone', `${withToken('elena', 'glpat-elena-fakelab')}/acme/website.git`, 'w')
    const w = join(dir, 'w')
    const before = (await api('GET', '/projects/20/repository/branches/main')).body.commit.id
    writeFileSync(join(w, 'main.txt'), 'x\n')
    await git(w, 'add', 'main.txt')
    await git(w, 'commit', '-m', 'To main')
    const stderr = await gitFails(w, 'push', 'origin', 'main')
    expect(stderr).toContain('remote: GitLab: You are not allowed to push code to protected branches on this project.')
    expect(stderr).toContain('! [remote rejected] main -> main (pre-receive hook declined)')
    expect((await api('GET', '/projects/20/repository/branches/main')).body.commit.id).toBe(before)
    expect(pushes).toEqual([])
  })

  it('refuses a force push to the protected main even for a Maintainer', async () => {
    await git(dir, 'clone', `${withToken('root', 'glpat-root-fakelab')}/acme/website.git`, 'w')
    const w = join(dir, 'w')
    await git(w, 'reset', '--hard', 'HEAD~1')
    const stderr = await gitFails(w, 'push', '--force', 'origin', 'main')
    expect(stderr).toContain('remote: GitLab: You are not allowed to force push code to a protected branch on this project.')
  })

  it('deletes a branch and pushes lightweight and annotated tags', async () => {
    await git(dir, 'clone', `${withToken('root', 'glpat-root-fakelab')}/acme/website.git`, 'w')
    const w = join(dir, 'w')
    await git(w, 'push', 'origin', '--delete', 'feature/login')
    expect((await api('GET', '/projects/20/repository/branches/feature%2Flogin')).status).toBe(404)
    await git(w, 'tag', 'v1.1.0-light')
    await git(w, 'tag', '-a', 'v1.1.0', '-m', 'Release 1.1')
    await git(w, 'push', 'origin', 'v1.1.0-light', 'v1.1.0')
    // One push, one fact, both tags in it (one RepositoryWrite per push).
    expect(pushes.map((p) => p.refs.map((r) => r.ref))).toEqual([['refs/heads/feature/login'], ['refs/tags/v1.1.0-light', 'refs/tags/v1.1.0']])
    const tag = await api('GET', '/projects/20/repository/tags/v1.1.0')
    expect(tag.body).toMatchObject({ name: 'v1.1.0', message: 'Release 1.1', target: (await git(w, 'rev-parse', 'v1.1.0')).stdout.trim() })
    expect((await api('GET', '/projects/20/repository/tags/v1.1.0-light')).body.commit.id).toBe((await git(w, 'rev-parse', 'HEAD')).stdout.trim())
    const stderr = await gitFails(w, 'push', 'origin', '--delete', 'main')
    expect(stderr).toContain('remote: GitLab: The default branch of a project cannot be deleted.')
  })

  it('pushes notes and custom refs, which are stored and advertised; the API lists only branches and tags', async () => {
    await git(dir, 'clone', `${withToken('elena', 'glpat-elena-fakelab')}/acme/website.git`, 'w')
    const w = join(dir, 'w')
    const head = (await git(w, 'rev-parse', 'HEAD')).stdout.trim()
    // What semantic-release does for a release's channels: a note on the tag's commit, pushed.
    await git(w, 'notes', '--ref', 'semantic-release', 'add', '-m', '{"channels":[null]}', 'v1.0.0')
    await git(w, 'push', 'origin', 'refs/notes/semantic-release', `HEAD:refs/custom/${'x'}`)
    const notes = (await git(w, 'rev-parse', 'refs/notes/semantic-release')).stdout.trim()
    const remote = (await git(w, 'ls-remote', 'origin')).stdout
    expect(remote).toContain(`${notes}\trefs/notes/semantic-release\n`)
    expect(remote).toContain(`${head}\trefs/custom/x\n`)
    // A push of notes is no branch or tag push: no push fact, no push event.
    expect(pushes).toEqual([])
    // Another clone fetches them (protocol v2 and v0 alike) and reads the note.
    for (const version of ['2', '0']) {
      const other = join(dir, `o${version}`)
      await git(dir, '-c', `protocol.version=${version}`, 'clone', `${url}/acme/website.git`, other)
      await git(other, '-c', `protocol.version=${version}`, 'fetch', 'origin', 'refs/notes/*:refs/notes/*')
      expect((await git(other, 'notes', '--ref', 'semantic-release', 'show', 'v1.0.0')).stdout).toBe('{"channels":[null]}\n')
    }
    expect((await api('GET', '/projects/20/repository/branches')).body.map((b: any) => b.name)).not.toContain('custom/x')
    expect((await api('GET', '/projects/20/repository/tags')).body.map((t: any) => t.name)).toEqual(['v1.0.0', 'v0.9.0'])
    // Updated and deleted like any ref.
    await git(w, 'notes', '--ref', 'semantic-release', 'add', '-f', '-m', '{"channels":[null,"next"]}', 'v1.0.0')
    await git(w, 'push', 'origin', 'refs/notes/semantic-release', ':refs/custom/x')
    const after = (await git(w, 'ls-remote', 'origin')).stdout
    expect(after).toContain(`${(await git(w, 'rev-parse', 'refs/notes/semantic-release')).stdout.trim()}\trefs/notes/semantic-release\n`)
    expect(after).not.toContain('refs/custom/x')
    // The repository's snapshot (GET /projects/:id/snapshot) holds the notes ref and its objects: git reads the note from it.
    const tar = await fetch(`${url}/api/v4/projects/20/snapshot`, { headers: { 'private-token': 'glpat-root-fakelab' } })
    writeFileSync(join(dir, 'snapshot.tar'), new Uint8Array(await tar.arrayBuffer()))
    mkdirSync(join(dir, 'bare'))
    await run('tar', ['-xf', join(dir, 'snapshot.tar'), '-C', join(dir, 'bare')])
    expect((await git(dir, '--git-dir', join(dir, 'bare'), 'notes', '--ref', 'semantic-release', 'show', 'v1.0.0')).stdout).toBe('{"channels":[null,"next"]}\n')
    await git(dir, '--git-dir', join(dir, 'bare'), 'fsck', '--full')
  })

  it.each([['refs/merge-requests/1/head'], ['refs/pipelines/1'], ['refs/environments/production/deployments/1'], ['refs/keep-around/x']])("refuses a push to GitLab's hidden ref %s with git's answer; the other refs of the push move unless it is --atomic", async (ref) => {
    await git(dir, 'clone', `${withToken('root', 'glpat-root-fakelab')}/acme/website.git`, 'w')
    const w = join(dir, 'w')
    await git(w, 'checkout', '-b', 'feature/with-hidden')
    await git(w, 'commit', '--allow-empty', '-m', 'Hidden')
    const sha = (await git(w, 'rev-parse', 'HEAD')).stdout.trim()
    const atomic = await gitFails(w, 'push', '--atomic', 'origin', `HEAD:${ref}`, 'feature/with-hidden')
    expect(atomic).toContain(`! [remote rejected] HEAD -> ${ref} (deny updating a hidden ref)`)
    expect(atomic).toContain('! [remote rejected] feature/with-hidden -> feature/with-hidden (atomic push failure)')
    expect((await api('GET', '/projects/20/repository/branches/feature%2Fwith-hidden')).status).toBe(404)
    expect(pushes).toEqual([])
    const plain = await gitFails(w, 'push', 'origin', `HEAD:${ref}`, 'feature/with-hidden')
    expect(plain).toContain(`! [remote rejected] HEAD -> ${ref} (deny updating a hidden ref)`)
    expect(plain).toContain(' * [new branch]      feature/with-hidden -> feature/with-hidden')
    const advertised = (await git(w, 'ls-remote', 'origin')).stdout
    expect(advertised).not.toContain(`${sha}\t${ref}\n`)
    expect(advertised).not.toMatch(/refs\/(pipelines|environments|keep-around)\//)
    expect((await api('GET', '/projects/20/repository/branches/feature%2Fwith-hidden')).body.commit.id).toBe(sha)
    expect(pushes).toEqual([{ project: 20, actor: 1, refs: [{ ref: 'refs/heads/feature/with-hidden', before: null, after: sha }] }])
    expect(await gitFails(w, 'push', 'origin', `:${ref}`)).toContain(`! [remote rejected] ${ref} (deny deleting a hidden ref)`)
  })

  it('asks for credentials on a private project (401 and Basic realm="GitLab"), and answers 404 to a signed-in stranger', async () => {
    const anonymous = await fetch(`${url}/acme/platform/api.git/info/refs?service=git-upload-pack`)
    expect(anonymous.status).toBe(401)
    expect(anonymous.headers.get('www-authenticate')).toBe('Basic realm="GitLab"')
    expect(await anonymous.text()).toBe('HTTP Basic: Access denied\n')
    const stderr = await gitFails(dir, 'clone', `${withToken('ext', 'glpat-ext-fakelab')}/acme/platform/api.git`, 'x')
    expect(stderr).toContain("remote: The project you were looking for could not be found or you don't have permission to view it.")
    const wrong = await fetch(`${url}/acme/website.git/info/refs?service=git-receive-pack`, { headers: { authorization: `Basic ${btoa('elena:nope')}` } })
    expect(wrong.status).toBe(401)
    const reporter = await fetch(`${url}/acme/website.git/info/refs?service=git-receive-pack`, { headers: { authorization: `Basic ${btoa('oauth2:glpat-root-readonly')}` } })
    expect([reporter.status, await reporter.text()]).toEqual([403, 'You are not allowed to upload code.'])
  })

  it("refuses a blocked or deactivated user's token with GitLab's 403 and its text (GitAccess#check_active_user!), a blocked user's password with the 401 challenge", async () => {
    const blocked = 'Your account has been blocked.'
    for (const [login, token] of [['bianca', 'glpat-bianca-fakelab'], ['oauth2', 'glpat-lars-fakelab']]) {
      // Before the project is looked at: the same answer for a public, a private and a missing project.
      for (const path of ['acme/website.git', 'acme/platform/api.git', 'acme/nothing.git']) {
        for (const service of ['git-upload-pack', 'git-receive-pack']) expect(await refs(path, service, login!, token!)).toEqual([403, blocked])
      }
    }
    expect(await refs('acme/website.git', 'git-upload-pack', 'dee', 'glpat-dee-fakelab')).toEqual([403, `Your account has been deactivated by your administrator. Please log back in from a web browser to reactivate your account at ${url}`])
    // git sends credentials after the 401 challenge only (a public project clones anonymously first): a private one.
    const stderr = await gitFails(dir, 'clone', `${withToken('bianca', 'glpat-bianca-fakelab')}/acme/platform/api.git`, 'x')
    expect(stderr).toContain(`remote: ${blocked}`)
    expect(stderr).toContain('The requested URL returned error: 403')
    // The POSTs refuse as the advertisement does.
    const post = await fetch(`${url}/acme/website.git/git-upload-pack`, { method: 'POST', headers: { authorization: `Basic ${btoa('bianca:glpat-bianca-fakelab')}`, 'content-type': 'application/x-git-upload-pack-request' }, body: '0000' })
    expect([post.status, await post.text()]).toEqual([403, blocked])
    // A password names active accounts only (find_with_user_password): a blocked one gets git's challenge.
    expect((await api('PUT', '/users/11', 'glpat-root-fakelab', { password: 'bianca-password-1' })).status).toBe(200)
    expect(await refs('acme/website.git', 'git-upload-pack', 'bianca', 'bianca-password-1')).toEqual([401, 'HTTP Basic: Access denied\n'])
  })

  it('takes a personal access token under the gitlab-ci-token login (no running job has it), as semantic-release sends GITLAB_TOKEN', async () => {
    expect(await refs('acme/website.git', 'git-receive-pack', 'gitlab-ci-token', 'glpat-root-fakelab')).toEqual([200, 'application/x-git-receive-pack-advertisement'])
    expect(await refs('acme/platform/api.git', 'git-upload-pack', 'gitlab-ci-token', 'glpat-elena-fakelab')).toEqual([404, "The project you were looking for could not be found or you don't have permission to view it."])
    expect(await refs('acme/website.git', 'git-receive-pack', 'gitlab-ci-token', 'no-such-token')).toEqual([401, 'HTTP Basic: Access denied\n'])
  })

  it.each([['2'], ['0']])("advertises merge requests' head and merge refs to upload-pack (protocol v%s), never to a pusher; git fetches them and they follow pushes", async (version) => {
    const login = (await api('GET', '/projects/20/repository/branches/feature%2Flogin')).body.commit.id
    const remote = (await git(dir, '-c', `protocol.version=${version}`, 'ls-remote', `${url}/acme/website.git`)).stdout
    expect(remote).toContain(`${login}\trefs/merge-requests/1/head\n`)
    expect(remote).not.toContain('refs/merge-requests/3/head')
    await git(dir, 'clone', `${withToken('devon', 'glpat-devon-fakelab')}/acme/website.git`, 'w')
    const w = join(dir, 'w')
    await git(w, '-c', `protocol.version=${version}`, 'fetch', 'origin', 'merge-requests/1/head')
    expect((await git(w, 'rev-parse', 'FETCH_HEAD')).stdout.trim()).toBe(login)
    // A pusher's advertisement hides them (receive.hideRefs), so a push's dry run sees none.
    const pushAdvertisement = await fetch(`${withToken('devon', 'glpat-devon-fakelab').replace(/\/\/[^@]*@/, '//')}/acme/website.git/info/refs?service=git-receive-pack`, { headers: { authorization: `Basic ${Buffer.from('devon:glpat-devon-fakelab').toString('base64')}` } })
    expect(pushAdvertisement.status).toBe(200)
    const advertised = await pushAdvertisement.text()
    expect(advertised).toContain('refs/heads/feature/login')
    expect(advertised).not.toContain('refs/merge-requests/')
    // A push to the source branch moves the head ref and makes a new merge ref on top of main.
    await git(w, 'checkout', 'feature/login')
    await git(w, 'commit', '--allow-empty', '-m', 'Pushed to the merge request')
    const pushed = (await git(w, 'rev-parse', 'HEAD')).stdout.trim()
    await git(w, 'push', 'origin', 'feature/login')
    await git(w, '-c', `protocol.version=${version}`, 'fetch', 'origin', '+refs/merge-requests/*:refs/remotes/origin/merge-requests/*')
    expect((await git(w, 'rev-parse', 'origin/merge-requests/1/head')).stdout.trim()).toBe(pushed)
    expect((await git(w, 'rev-parse', 'origin/merge-requests/1/merge^1', 'origin/merge-requests/1/merge^2')).stdout.trim().split('\n')).toEqual([(await git(w, 'rev-parse', 'origin/main')).stdout.trim(), pushed])
    await git(w, 'fsck')
  })

  it('opens a merge request with push options, which the API lists with the pushed commits', async () => {
    await git(dir, 'clone', `${withToken('elena', 'glpat-elena-fakelab')}/acme/website.git`, 'w')
    const w = join(dir, 'w')
    await git(w, 'checkout', '-b', 'feature/options')
    for (const n of [1, 2]) {
      writeFileSync(join(w, `o${n}.txt`), `${n}\n`)
      await git(w, 'add', '.')
      await git(w, 'commit', '-m', `Option commit ${n}`)
    }
    const { stderr } = await git(w, 'push', '-o', 'merge_request.create', '-o', 'merge_request.target=main', '-o', 'merge_request.label=pushed', '-o', 'merge_request.remove_source_branch', 'origin', 'feature/options')
    const list = await api('GET', '/projects/20/merge_requests?source_branch=feature/options')
    expect(list.body).toHaveLength(1)
    const mr = list.body[0]
    expect(mr).toMatchObject({ title: 'Feature/options', source_branch: 'feature/options', target_branch: 'main', labels: ['pushed'], force_remove_source_branch: true, author: { username: 'elena' }, assignees: [{ username: 'elena' }] })
    expect(stderr).toContain(`remote: View merge request for feature/options:\nremote:   ${url}/acme/website/-/merge_requests/${mr.iid}`)
    const commits = await api('GET', `/projects/20/merge_requests/${mr.iid}/commits`)
    expect(commits.body.map((c: any) => c.title)).toEqual(['Option commit 2', 'Option commit 1'])
    // A later push with options updates it; one without `create` on a branch with no merge request warns.
    await git(w, 'commit', '--allow-empty', '-m', 'Third')
    await git(w, 'push', '-o', 'merge_request.title=Renamed by a push', 'origin', 'feature/options')
    expect((await api('GET', `/projects/20/merge_requests/${mr.iid}`)).body).toMatchObject({ title: 'Renamed by a push', sha: (await git(w, 'rev-parse', 'HEAD')).stdout.trim() })
    await git(w, 'checkout', '-b', 'feature/no-mr')
    const warned = await git(w, 'push', '-o', 'merge_request.title=x', 'origin', 'feature/no-mr')
    expect(warned.stderr).toContain("remote: WARNINGS:\nremote: Error encountered with push options 'merge_request.title=x': A merge_request.create push option is required to create a merge request for branch feature/no-mr")
  })

  it('pushes make pipelines from the pushed .gitlab-ci.yml: ci.variable feeds rules, ci.skip and [ci skip] skip, a deletion makes none', async () => {
    await git(dir, 'clone', `${withToken('elena', 'glpat-elena-fakelab')}/acme/website.git`, 'w')
    const w = join(dir, 'w')
    await git(w, 'checkout', '-b', 'feature/ci')
    writeFileSync(join(w, '.gitlab-ci.yml'), 'build:\n  script: make\ndeploy:\n  rules:\n    - if: \'$DEPLOY == "yes"\'\n  script: deploy\n')
    await git(w, 'add', '.gitlab-ci.yml')
    await git(w, 'commit', '-m', 'Add CI')
    const sha = (await git(w, 'rev-parse', 'HEAD')).stdout.trim()
    const main = (await git(w, 'rev-parse', 'main')).stdout.trim()
    await git(w, 'push', '-o', 'ci.variable=DEPLOY=yes', '-o', 'ci.variable=EMPTY=', '-o', 'ci.variable=NOVALUE', 'origin', 'feature/ci')
    const list = await api('GET', '/projects/20/pipelines?ref=feature/ci')
    expect(list.body).toHaveLength(1)
    const id = list.body[0].id as number
    expect((await api('GET', `/projects/20/pipelines/${id}`)).body).toMatchObject({ sha, ref: 'feature/ci', status: 'pending', before_sha: BLANK, user: { username: 'elena' } })
    const jobs = await api('GET', `/projects/20/pipelines/${id}/jobs`)
    expect(jobs.body.map((j: any) => j.name)).toEqual(['deploy', 'build'])
    const variables = await api('GET', `/projects/20/pipelines/${id}/variables`)
    expect(variables.body.map((v: any) => [v.key, v.value, v.variable_type])).toEqual([['DEPLOY', 'yes', 'env_var'], ['EMPTY', '', 'env_var']])
    // Without the variable the rule leaves deploy out; ci.skip and [ci skip] make skipped pipelines.
    await git(w, 'commit', '--allow-empty', '-m', 'Second')
    await git(w, 'push', 'origin', 'feature/ci')
    const second = (await api('GET', '/projects/20/pipelines?ref=feature/ci')).body[0]
    expect(second.id).toBe(id + 1)
    expect((await api('GET', `/projects/20/pipelines/${second.id}/jobs`)).body.map((j: any) => j.name)).toEqual(['build'])
    await git(w, 'commit', '--allow-empty', '-m', 'Third')
    await git(w, 'push', '-o', 'ci.skip', 'origin', 'feature/ci')
    await git(w, 'commit', '--allow-empty', '-m', 'Fourth [CI SKIP]')
    await git(w, 'push', 'origin', 'feature/ci')
    const all = (await api('GET', '/projects/20/pipelines?ref=feature/ci')).body
    expect(all.map((p: any) => [p.id, p.status])).toEqual([[id + 3, 'skipped'], [id + 2, 'skipped'], [id + 1, 'pending'], [id, 'pending']])
    await git(w, 'push', 'origin', '--delete', 'feature/ci')
    expect((await api('GET', '/projects/20/pipelines?ref=feature/ci')).body).toHaveLength(4)
    expect(main).not.toBe(sha)
  })

  it('a merge request opened by a push option gets its merge request pipeline', async () => {
    await git(dir, 'clone', `${withToken('elena', 'glpat-elena-fakelab')}/acme/website.git`, 'w')
    const w = join(dir, 'w')
    await git(w, 'checkout', '-b', 'feature/mr-ci')
    writeFileSync(join(w, '.gitlab-ci.yml'), 'test:\n  rules:\n    - if: \'$CI_PIPELINE_SOURCE == "merge_request_event"\'\n  script: make test\n')
    await git(w, 'add', '.gitlab-ci.yml')
    await git(w, 'commit', '-m', 'MR CI')
    await git(w, 'push', '-o', 'merge_request.create', 'origin', 'feature/mr-ci')
    const mr = (await api('GET', '/projects/20/merge_requests?source_branch=feature/mr-ci')).body[0]
    const full = await api('GET', `/projects/20/merge_requests/${mr.iid}`)
    expect(full.body.head_pipeline).toMatchObject({ ref: `refs/merge-requests/${mr.iid}/head`, status: 'pending', user: { username: 'elena' } })
    // No push pipeline: its only job is for merge requests.
    expect((await api('GET', '/projects/20/pipelines?ref=feature/mr-ci')).body).toEqual([])
  })

  /** `GET …/info/refs?service=…` with HTTP Basic: status and body text. */
  const refs = async (path: string, service: string, login: string, password: string) => {
    const res = await fetch(`${url}/${path}/info/refs?service=${service}`, { headers: { authorization: `Basic ${btoa(`${login}:${password}`)}` } })
    return [res.status, res.status === 200 ? res.headers.get('content-type') : await res.text()]
  }

  it('deploy tokens clone their project or their group\'s projects with their username, never push', async () => {
    await git(dir, 'clone', `${withToken('gitlab+deploy-token-31', 'fakelab-deploy-acme')}/acme/website.git`, 'a')
    expect((await git(join(dir, 'a'), 'rev-parse', 'HEAD')).stdout.trim()).toBe((await api('GET', '/projects/20/repository/branches/main')).body.commit.id)
    expect(await refs('acme/platform/api.git', 'git-upload-pack', 'api-deployer', 'fakelab-deploy-api')).toEqual([200, 'application/x-git-upload-pack-advertisement'])
    const advert = 'application/x-git-upload-pack-advertisement'
    // Group acme's token reads acme's projects and its subgroups'.
    expect(await refs('acme/platform/api.git', 'git-upload-pack', 'gitlab+deploy-token-31', 'fakelab-deploy-acme')).toEqual([200, advert])
    expect(await refs('acme/website.git', 'git-upload-pack', 'gitlab+deploy-token-31', 'fakelab-deploy-acme')).toEqual([200, advert])
    // Another login with the secret, a revoked token, a project the token does not reach: no credentials (401).
    for (const [path, login, secret] of [['acme/platform/api.git', 'elena', 'fakelab-deploy-api'], ['acme/platform/api.git', 'gitlab+deploy-token-34', 'fakelab-deploy-api-revoked'], ['olive/dotfiles.git', 'gitlab+deploy-token-31', 'fakelab-deploy-acme']]) {
      expect(await refs(path!, 'git-upload-pack', login!, secret!)).toEqual([401, 'HTTP Basic: Access denied\n'])
    }
    // A registry-only token may not download code; no deploy token may push (13.12 has no write_repository for them).
    expect(await refs('acme/platform/api.git', 'git-upload-pack', 'gitlab+deploy-token-33', 'fakelab-deploy-api-registry')).toEqual([403, 'You are not allowed to download code.'])
    expect(await refs('acme/platform/api.git', 'git-receive-pack', 'api-deployer', 'fakelab-deploy-api')).toEqual([403, 'You are not allowed to upload code.'])
    writeFileSync(join(dir, 'a', 'x.txt'), 'x\n')
    await git(join(dir, 'a'), 'add', 'x.txt')
    await git(join(dir, 'a'), 'commit', '-m', 'x')
    expect(await gitFails(join(dir, 'a'), 'push', 'origin', 'HEAD:refs/heads/deployer')).toContain('You are not allowed to upload code.')
  })

  it("a scenario user's password clones and pushes as the user (username or e-mail); a wrong one is 401", async () => {
    await git(dir, 'clone', `${withToken('elena', 'elena-s3cret')}/acme/website.git`, 'w')
    const w = join(dir, 'w')
    await git(w, 'checkout', '-b', 'feature/password')
    await git(w, 'commit', '--allow-empty', '-m', 'With a password')
    await git(w, 'push', 'origin', 'feature/password')
    expect(pushes).toEqual([{ project: 20, actor: 9, refs: [{ ref: 'refs/heads/feature/password', before: null, after: (await git(w, 'rev-parse', 'HEAD')).stdout.trim() }] }])
    expect(await refs('acme/website.git', 'git-receive-pack', 'ELENA@example.com', 'elena-s3cret')).toEqual([200, 'application/x-git-receive-pack-advertisement'])
    // The Developer's role still decides: main is protected.
    await git(w, 'checkout', 'main')
    await git(w, 'commit', '--allow-empty', '-m', 'To main')
    expect(await gitFails(w, 'push', 'origin', 'main')).toContain('remote: GitLab: You are not allowed to push code to protected branches on this project.')
    expect(await refs('acme/website.git', 'git-receive-pack', 'elena', 'wrong')).toEqual([401, 'HTTP Basic: Access denied\n'])
    expect(await refs('acme/website.git', 'git-receive-pack', 'max', 'elena-s3cret')).toEqual([401, 'HTTP Basic: Access denied\n'])
    // A password set through the API is the account's too.
    const created = await api('POST', '/users', 'glpat-root-fakelab', { email: 'pat@example.com', username: 'pat', name: 'Pat', password: 'pat-password-1' })
    expect(created.status).toBe(201)
    expect(JSON.stringify(created.body)).not.toContain('pat-password-1')
    expect(await refs('acme/website.git', 'git-upload-pack', 'pat', 'pat-password-1')).toEqual([200, 'application/x-git-upload-pack-advertisement'])
  })

  it("serves a renamed or transferred group's projects (subgroups' too) on their old paths, with the moved message after a push", async () => {
    await git(dir, 'clone', `${withToken('elena', 'glpat-elena-fakelab')}/acme/website.git`, 'w')
    const w = join(dir, 'w')
    expect((await api('PUT', '/groups/10', 'glpat-root-fakelab', { path: 'acme-corp' })).status).toBe(200)
    await git(w, 'checkout', '-b', 'feature/group-moved')
    await git(w, 'commit', '--allow-empty', '-m', 'After the group rename')
    const { stderr } = await git(w, 'push', 'origin', 'feature/group-moved')
    expect(stderr).toContain(`remote: Project 'acme/website' was moved to 'acme-corp/website'.\nremote:\nremote: Please update your Git remote:\nremote:\nremote:   git remote set-url origin ${url}/acme-corp/website.git\n`)
    expect((await api('GET', '/projects/20/repository/branches/feature%2Fgroup-moved')).status).toBe(200)
    // A subgroup's project follows its group, case-insensitively; the private one still asks who you are.
    expect(await refs('ACME/Platform/api.git', 'git-upload-pack', 'root', 'glpat-root-fakelab')).toEqual([200, 'application/x-git-upload-pack-advertisement'])
    expect((await fetch(`${url}/acme/platform/api.git/info/refs?service=git-upload-pack`)).status).toBe(401)
    // A transfer of the subgroup to the top level: both older paths lead to the project.
    expect((await api('POST', '/groups/11/transfer', 'glpat-root-fakelab', {})).status).toBe(201)
    for (const old of ['acme/platform/api', 'acme-corp/platform/api', 'platform/api']) {
      expect(await refs(`${old}.git`, 'git-upload-pack', 'root', 'glpat-root-fakelab')).toEqual([200, 'application/x-git-upload-pack-advertisement'])
    }
    const clone = await git(dir, 'clone', `${withToken('root', 'glpat-root-fakelab')}/acme/platform/api.git`, 'api')
    expect(clone.stderr).not.toContain('fatal')
    await git(join(dir, 'api'), 'commit', '--allow-empty', '-m', 'First in api')
    const pushed = await git(join(dir, 'api'), 'push', 'origin', 'HEAD:refs/heads/after-transfer')
    expect(pushed.stderr).toContain("remote: Project 'acme/platform/api' was moved to 'platform/api'.")
    // The API does not follow redirects (13.12): the group and its project are 404 at their old paths.
    expect((await api('GET', '/groups/acme')).status).toBe(404)
    expect((await api('GET', '/projects/acme%2Fwebsite')).status).toBe(404)
  })

  it('serves a renamed or transferred project on its old paths (redirect routes), with the moved message after a push; the API does not follow them', async () => {
    expect((await api('PUT', '/projects/20', 'glpat-root-fakelab', { path: 'site' })).status).toBe(200)
    await git(dir, 'clone', `${withToken('elena', 'glpat-elena-fakelab')}/acme/website.git`, 'w')
    const w = join(dir, 'w')
    await git(w, 'checkout', '-b', 'feature/moved')
    await git(w, 'commit', '--allow-empty', '-m', 'After the move')
    const { stderr } = await git(w, 'push', 'origin', 'feature/moved')
    expect(stderr).toContain(`remote: Project 'acme/website' was moved to 'acme/site'.\nremote:\nremote: Please update your Git remote:\nremote:\nremote:   git remote set-url origin ${url}/acme/site.git\n`)
    expect((await api('GET', '/projects/20/repository/branches/feature%2Fmoved')).status).toBe(200)
    // 13.12's API finds projects by their current path only.
    expect((await api('GET', '/projects/acme%2Fwebsite')).status).toBe(404)
    expect((await api('GET', '/projects/acme%2Fsite')).body.id).toBe(20)
    // A transfer keeps both old paths; an anonymous clone of a public project follows them quietly.
    expect((await api('PUT', '/projects/20/transfer', 'glpat-root-fakelab', { namespace: 'root' })).status).toBe(200)
    for (const old of ['acme/website', 'ACME/Site']) {
      const res = await fetch(`${url}/${old}.git/info/refs?service=git-upload-pack`)
      expect(res.status).toBe(200)
    }
    const pushed = await git(w, 'push', `${withToken('elena', 'glpat-elena-fakelab')}/acme/site.git`, 'feature/moved:feature/moved-again')
    expect(pushed.stderr).toContain("remote: Project 'acme/site' was moved to 'root/site'.")
    expect((await fetch(`${url}/acme/nothing.git/info/refs?service=git-upload-pack`)).status).toBe(401)
  })
})
