/**
 * The outside check of issue 23: python-gitlab, @gitbeaker/rest and the Ruby gem, one after
 * another against ONE fakelab server on the default scenario, each moving project 20's repository
 * to the other storage as the administrator, polling the move to `finished` (fakelab counts each
 * later API request as a tick of the move, so a frozen clock does not hold it), and reading an
 * issue's user agent detail. The second and third clients must find the repository writable again
 * (no `400 is read only`). python-gitlab's part skips without Debian's python3-gitlab, the Ruby
 * part without the gitlab gem (`apt-get install ruby-gitlab`).
 */
import { execFile, execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { Gitlab } from '@gitbeaker/rest'
import { describe, expect, it } from 'vitest'
import { findPython, serveDefaultScenario } from '../support/clients.js'

const python = findPython()
const ruby = (() => {
  try {
    execFileSync('ruby', ['-e', 'require "gitlab"'], { stdio: 'ignore' })
    return 'ruby'
  } catch {
    return undefined
  }
})()

function run(command: string, script: string, url: string): Promise<string[]> {
  const args = command === 'ruby' ? [fileURLToPath(new URL(script, import.meta.url)), url] : ['-W', 'ignore', fileURLToPath(new URL(script, import.meta.url)), url]
  return new Promise((resolve, reject) => {
    execFile(command, args, { timeout: 60_000 }, (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stdout}\n${stderr}`)) : resolve(stdout.trim().split('\n'))))
  })
}

/**
 * @gitbeaker/rest's part: the same steps, through its own resources where they are right. Its
 * `Issues.showUserAgentDetails` asks `…/user_agent_details` (GitLab's route is singular) and its
 * project `schedule` takes a source storage, so those two go through its requester.
 */
async function gitbeaker(url: string): Promise<string[]> {
  const admin = new Gitlab({ host: url, token: 'glpat-root-fakelab' })
  const source = (await admin.Projects.show(20)).repository_storage as string
  const destination = source === 'default' ? 'storage-2' : 'default'
  const move = (await admin.requester.post('projects/20/repository_storage_moves', { body: { destination_storage_name: destination } })).body as { id: number; state: string }
  const states = [move.state]
  while (!['finished', 'failed'].includes(states.at(-1)!) && states.length < 10) {
    states.push((await admin.ProjectRepositoryStorageMoves.show(move.id, { projectId: 20 })).state as string)
  }
  const detail = (await admin.requester.get('projects/20/issues/1/user_agent_detail')).body as Record<string, unknown>
  return [
    `move ${source} -> ${destination} ${states.join(' ')}`,
    `storage now ${(await admin.Projects.show(20)).repository_storage as string}`,
    `user agent detail ${JSON.stringify(Object.keys(detail).sort()).replace(/"/g, "'").replace(/,/g, ', ')} ${detail.user_agent ? 'True' : 'False'}`,
  ]
}

const DETAIL = "user agent detail ['akismet_submitted', 'ip_address', 'user_agent'] True"

describe('three clients, one after another, against one fakelab server', () => {
  const fakelab = serveDefaultScenario()
  // Each client moves project 20 from where the one before left it; all must see the move finish.
  let at = 'default'
  const expected = (): string[] => {
    const to = at === 'default' ? 'storage-2' : 'default'
    const lines = [`move ${at} -> ${to} scheduled started finished`, `storage now ${to}`, DETAIL]
    at = to
    return lines
  }

  it.skipIf(!python)('python-gitlab moves the repository and reads a user agent detail', async () => {
    expect(await run(python!, './outside_python_gitlab.py', fakelab.url)).toEqual(expected())
  })

  it('@gitbeaker/rest does the same after it, with no 400 is read only', async () => {
    expect(await gitbeaker(fakelab.url)).toEqual(expected())
  })

  it.skipIf(!ruby)('the Ruby gem does the same after both', async () => {
    expect(await run(ruby!, './outside_ruby_gitlab.rb', fakelab.url)).toEqual(expected())
  })

  it('left no move unfinished', async () => {
    const res = await fetch(`${fakelab.url}/api/v4/projects/20/repository_storage_moves`, { headers: { 'PRIVATE-TOKEN': 'glpat-root-fakelab' } })
    const moves = (await res.json()) as { state: string }[]
    expect(moves.map((m) => m.state).filter((s) => s !== 'finished')).toEqual([])
    expect(moves.length).toBe([python, true, ruby].filter(Boolean).length)
  })
})
