// One autocannon run as a process of its own (bench/run.mjs pins it to the core the servers do not
// use). Prints autocannon's result summary as one JSON line.
//
//   node bench/load.mjs URL SECONDS CONNECTIONS HEADERS_JSON [ROTATE]
//     ROTATE  when given (`1`), each request asks `URL?per_page=20&n=K` for K counting up from a random
//             start: the same list every time, but a request line the server has not seen before
//             (nor in an earlier run), so the reply memo never serves it: a first request.
import autocannon from 'autocannon'

const [url, secondsText, connectionsText, headersText, rotateText] = process.argv.slice(2)
const rotate = rotateText === '1'
const base = new URL(url)
let next = Math.floor(Math.random() * 1e12)
const requests = rotate
  ? [{ setupRequest: (request) => ({ ...request, path: `${base.pathname}?per_page=20&n=${(next += 1)}` }) }]
  : undefined
const result = await autocannon({
  url,
  connections: Number(connectionsText),
  duration: Number(secondsText),
  headers: JSON.parse(headersText),
  ...(requests ? { requests } : {}),
})
process.stdout.write(`${JSON.stringify({
  rps: result.requests.average,
  p50: result.latency.p50,
  p99: result.latency.p99,
  bad: result.non2xx + result.errors + result.timeouts,
})}\n`)
