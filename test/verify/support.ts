/**
 * Shared pieces of the verify tests: the committed record/replay cassette (recorded through
 * `fakelab record` against a fakelab upstream on the default scenario), copies of it altered in
 * known ways, and `fakelab verify` run as a user runs it (a child process on dist/).
 */
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Entry, Har } from 'har-format'
import { loadDefaultScenario } from '../../src/node.js'
import type { Scenario } from '../../src/index.js'
import { ROOT, SESSION_CASSETTE } from '../record/support.js'

export { ROOT, SESSION_CASSETTE }

/** A fresh copy of the committed session cassette (44 exchanges). */
export function sessionCassette(): Har {
  return JSON.parse(readFileSync(SESSION_CASSETTE, 'utf8')) as Har
}

let defaultScenario: Promise<Scenario> | undefined
/** The default scenario: the state the committed cassette's upstream started from. */
export function upstreamScenario(): Promise<Scenario> {
  return (defaultScenario ??= loadDefaultScenario())
}

/** Rewrites one entry's JSON response body. */
export function editBody(har: Har, index: number, edit: (body: any) => unknown): void {
  const entry = har.log.entries[index]!
  const body = JSON.parse(entry.response.content.text!) as unknown
  const next = edit(body)
  entry.response.content.text = JSON.stringify(next === undefined ? body : next)
}

/** Sets (or adds) a response header of one entry. */
export function setHeader(entry: Entry, name: string, value: string): void {
  const header = entry.response.headers.find((h) => h.name.toLowerCase() === name.toLowerCase())
  if (header) header.value = value
  else entry.response.headers.push({ name, value })
}

/** A response header of one entry. */
export function headerOf(entry: Entry, name: string): string | undefined {
  return entry.response.headers.find((h) => h.name.toLowerCase() === name.toLowerCase())?.value
}

const BIN = join(ROOT, 'bin', 'fakelab')

/** Runs `fakelab <args>` (dist/) to completion, bounded by 30 s. */
export function runCli(args: string[], cwd = ROOT): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { NO_COLOR: '1' }
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('FAKELAB_')) env[name] = value
  const child = spawn(process.execPath, [BIN, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000)
  return new Promise((resolve) => {
    child.once('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  })
}
