'use strict'
// What a server's resident memory is made of (issue 39 item 5), preloaded into the server:
//
//   FAKELAB_SOAK_SERVER="node -r ./bench/rss-probe.cjs bin/fakelab serve --port 0 --log off" \
//     RSS_PROBE_OUT=/tmp/rss.jsonl node bench/soak.mjs --seconds 30
//
// Every 5 s (and on SIGUSR2) it appends one JSON line to RSS_PROBE_OUT (default
// /tmp/fakelab-rss-<pid>.jsonl): `process.memoryUsage()`, V8's spaces ([size, used, physical] in MB),
// its heap and code statistics, the CPU time used so far, and the resident pages of
// /proc/self/smaps by mapping (`node` is node's binary with ICU's data, `[heap]` malloc's main
// arena, `[anon]` mostly V8's pages). With RSS_PROBE_GC_AT=<seconds> it also writes a line before
// and after two full collections at that time (the live heap), and with RSS_PROBE_SNAPSHOT=<file>
// a heap snapshot after them. Setting `--expose-gc` changes V8's flag hash, so the split bundles
// loaded after that compile without their code caches: take the collection late in a run.
// Reading smaps allocates a few hundred kilobytes per sample.
const v8 = require('node:v8')
const fs = require('node:fs')

const out = process.env.RSS_PROBE_OUT || `/tmp/fakelab-rss-${process.pid}.jsonl`
const mb = (bytes) => Math.round(bytes / 104857.6) / 10

/** Resident MB of /proc/self/smaps by mapping name (file mappings by base name), those over 0.5 MB. */
function smaps() {
  const kb = {}
  let name = ''
  for (const line of fs.readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    const mapping = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line)
    if (mapping) {
      name = mapping[1] === '' ? '[anon]' : mapping[1].replace(/.*\//, '')
      continue
    }
    const rss = /^Rss:\s+(\d+)/.exec(line)
    if (rss) kb[name] = (kb[name] ?? 0) + Number(rss[1])
  }
  return Object.fromEntries(Object.entries(kb).filter(([, v]) => v > 512).map(([k, v]) => [k, Math.round(v / 102.4) / 10]))
}

function sample(tag) {
  const cpu = process.cpuUsage()
  const heap = v8.getHeapStatistics()
  const line = {
    tag,
    seconds: Math.round(process.uptime()),
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    memoryUsage: Object.fromEntries(Object.entries(process.memoryUsage()).map(([k, v]) => [k, mb(v)])),
    spaces: Object.fromEntries(v8.getHeapSpaceStatistics().filter((s) => s.space_size > 0).map((s) => [s.space_name, [mb(s.space_size), mb(s.space_used_size), mb(s.physical_space_size)]])),
    heap: { totalPhysical: mb(heap.total_physical_size), malloced: mb(heap.malloced_memory), peakMalloced: mb(heap.peak_malloced_memory), external: mb(heap.external_memory) },
    code: Object.fromEntries(Object.entries(v8.getHeapCodeStatistics()).map(([k, v]) => [k, mb(v)])),
    smaps: smaps(),
  }
  fs.appendFileSync(out, `${JSON.stringify(line)}\n`)
}

setInterval(() => sample('tick'), 5000).unref()
process.on('SIGUSR2', () => sample('signal'))

if (process.env.RSS_PROBE_GC_AT) {
  setTimeout(() => {
    sample('before-gc')
    v8.setFlagsFromString('--expose-gc')
    const gc = require('node:vm').runInNewContext('gc')
    gc()
    gc()
    sample('after-gc')
    if (process.env.RSS_PROBE_SNAPSHOT) v8.writeHeapSnapshot(process.env.RSS_PROBE_SNAPSHOT)
  }, Number(process.env.RSS_PROBE_GC_AT) * 1000).unref()
}
