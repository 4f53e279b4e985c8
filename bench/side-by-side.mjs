// Two builds' first requests side by side (issue 39 item 2's before/after figures): each build's
// `fakelab serve --log off` on the default scenario with the bench fixture's 20 labels, both pinned to
// core 0 at once, and a wrk each on core 1 sending distinct request lines (`?per_page=20&n=K`, every
// request a first request) for the same seconds. Sharing one core, the two servers' rates are in
// the ratio of their CPU per request, which a machine whose speed drifts changes little: the rounds
// of one run agree within a few per cent where rates measured in turn move by a fifth.
//
//   node bench/side-by-side.mjs BASE_DIST [DIST] [--rounds 5] [--seconds 4] [--log json] [--base-log off]
//     BASE_DIST  the build to compare against (an older commit's dist/)
//     DIST       the build measured (default ./dist)
//     --log json both servers log JSON lines to a file each
//     --base-log off  ...but BASE_DIST's server does not: with the same build twice, the ratio is
//                what the log costs (issue 39's done-when: the logged figure >= 0.95x the unlogged one)
// Prints each round's rates and the median of DIST/BASE_DIST. Needs wrk (Debian: apt-get install wrk).
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { LIST_PATH, TOKEN, addBenchLabels } from './fixture.mjs'
import { NO_WRK, WRK } from './load.mjs'
import { pinned, startPinned } from './processes.mjs'

const { values: options, positionals } = parseArgs({
  allowPositionals: true,
  options: { rounds: { type: 'string', default: '5' }, seconds: { type: 'string', default: '4' }, log: { type: 'string', default: 'off' }, 'base-log': { type: 'string' } },
})
if (!WRK) {
  console.log(`side by side: ${NO_WRK}`)
  process.exit(0)
}
if (positionals.length < 1) {
  console.error('usage: node bench/side-by-side.mjs BASE_DIST [DIST] [--rounds N] [--seconds S] [--log json] [--base-log off]')
  process.exit(2)
}
const [base, measured] = [resolve(positionals[0]), resolve(positionals[1] ?? 'dist')]
const ROUNDS = Number(options.rounds)
const SECONDS = Number(options.seconds)
const work = mkdtempSync(join(tmpdir(), 'fakelab-side-by-side-'))
let start = Math.floor(Math.random() * 1e6) * 1e6

/** `fakelab serve` of a build pinned to core 0, its stdout (URL line, log) to a file. */
const serve = (dist, name, log) => startPinned([process.execPath, join(dist, 'cli.js'), 'serve', '--port', '0', '--quiet', '--log', log], name)
const baseLog = options['base-log'] ?? options.log

/** One wrk run of distinct request lines against `url` from core 1: requests per second. */
function wrk(url, seconds) {
  const lua = join(work, 'distinct.lua')
  const [command, argv] = pinned(1, ['wrk', '-t1', '-c32', `-d${seconds}s`, '-H', `PRIVATE-TOKEN: ${TOKEN}`, '-s', lua, `${url}${LIST_PATH}`, '--', String((start += 100_000_000))])
  return new Promise((resolveRate, reject) => {
    const child = spawn(command, argv, { stdio: ['ignore', 'pipe', 'inherit'] })
    let text = ''
    child.stdout.setEncoding('utf8').on('data', (chunk) => (text += chunk))
    child.once('close', (code) => {
      const rate = Number(/Requests\/sec:\s+([\d.]+)/.exec(text)?.[1])
      if (code !== 0 || /Non-2xx/.test(text) || !Number.isFinite(rate)) reject(new Error(`wrk failed on ${url}: ${text}`))
      else resolveRate(rate)
    })
  })
}

writeFileSync(join(work, 'distinct.lua'), `counter = 0\ninit = function(args)\n  counter = tonumber(args[1])\nend\nrequest = function()\n  counter = counter + 1\n  return wrk.format(nil, wrk.path .. "?per_page=20&n=" .. counter)\nend\n`)
const servers = [await serve(base, 'base', baseLog), await serve(measured, 'measured', options.log)]
try {
  for (const server of servers) await addBenchLabels((request) => fetch(request), server.url)
  await Promise.all(servers.map((server) => wrk(server.url, 2)))
  const ratios = []
  for (let round = 0; round < ROUNDS; round++) {
    const [a, b] = await Promise.all(servers.map((server) => wrk(server.url, SECONDS)))
    ratios.push(b / a)
    console.log(`round ${round + 1}: ${base} ${a.toFixed(0)} req/s, ${measured} ${b.toFixed(0)} req/s, ratio ${(b / a).toFixed(3)}`)
  }
  const sorted = [...ratios].sort((x, y) => x - y)
  console.log(`side by side on one core, distinct request lines, --log ${options.log}${baseLog === options.log ? '' : ` (base: --log ${baseLog})`}: ${measured} / ${base} = ${sorted[Math.floor((sorted.length - 1) / 2)].toFixed(3)} (median of ${ROUNDS} rounds, ${sorted[0].toFixed(3)}-${sorted.at(-1).toFixed(3)})`)
} finally {
  for (const server of servers) server.stop()
  rmSync(work, { recursive: true, force: true })
}
