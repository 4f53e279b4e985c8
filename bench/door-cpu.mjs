// CPU a server process spends per first request, read from /proc (Linux), so that a loaded
// machine compares builds by work rather than by wall time (docs/benchmarks.md, issue 27).
// One keep-alive connection, requests one after another, each a request line not asked before.
//
//   node bench/door-cpu.mjs fakelab DIST [CALLS]   fakelab's node:http door on the benchmark fixture
//   node bench/door-cpu.mjs raw BODY_FILE [CALLS]  node:http sending BODY_FILE's bytes (bench/server.mjs)
// Prints {"usPerRequest": [round, round, round]} (µs of the server's user + system CPU).
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import http from 'node:http'
import { join } from 'node:path'
import { LIST_PATH, TOKEN } from './fixture.mjs'

const [kind, arg, callsText] = process.argv.slice(2)
const calls = Number(callsText ?? 3000)
const child = spawn(process.execPath, [join(import.meta.dirname, 'server.mjs'), kind, arg], { stdio: ['ignore', 'pipe', 'inherit'] })
const url = await new Promise((resolve) => child.stdout.once('data', (data) => resolve(String(data).trim())))
/** The child's user + system CPU in µs (fields 14 and 15 of /proc/<pid>/stat, in clock ticks of 10 ms). */
const cpu = () => {
  const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10_000
}
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
let n = 0
const get = () => new Promise((resolve, reject) => {
  http.get(`${url}${LIST_PATH}?per_page=20&n=${(n += 1)}`, { agent, headers: { 'private-token': TOKEN } }, (res) => {
    res.resume()
    res.on('end', resolve)
  }).on('error', reject)
})
for (let i = 0; i < 1000; i += 1) await get()
const rounds = []
for (let round = 0; round < 3; round += 1) {
  const c0 = cpu()
  for (let i = 0; i < calls; i += 1) await get()
  rounds.push(Math.round((cpu() - c0) / calls * 10) / 10)
}
child.kill('SIGTERM')
agent.destroy()
process.stdout.write(`${JSON.stringify({ usPerRequest: rounds })}\n`)
