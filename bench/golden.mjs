// Byte-for-byte guard for the doors: a fixed request script (every implemented route plus the
// cross-cutting cases: auth variants, sudo, pagination and Link, 400/401/403/404/405/409/410/412/414,
// HEAD, JSON/form/multipart bodies, conditional requests, malformed input) sent through the
// node:http door and the MSW door, each on a fresh simulator of the default scenario. Every answer
// is written out as status, every header and the body.
//
//   node bench/golden.mjs [--dist DIR] [--out FILE]   dump one build (default: ./dist) to FILE or stdout
//   node bench/golden.mjs --base REF                   build REF in a temporary directory (git archive,
//                                                      this checkout's node_modules), dump both builds
//                                                      with this script and print the diff (exit 1 if any)
//
// The dump leaves out one header only: `Date`, which node:http stamps with the wall clock.
// Everything else is deterministic: the scenario freezes the clock, faker is seeded, and
// `x-request-id` counts requests, so requests run strictly one after another, and cases whose
// request count may change between versions (MSW requests that used to find no handler) run last.
// node:http headers are dumped in wire order and spelling (`rawHeaders`); the MSW door's as the Fetch
// `Headers` iterate (sorted, lower-case), which is all a Fetch client can see.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import net from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const args = process.argv.slice(2)
const option = (name) => {
  const i = args.indexOf(name)
  return i >= 0 ? args[i + 1] : undefined
}

// ---- the script -------------------------------------------------------------------------------

const T = (user) => ({ 'PRIVATE-TOKEN': `glpat-${user}-fakelab` })
const json = (body) => ({ 'content-type': 'application/json', body: JSON.stringify(body) })
const form = (fields) => ({ 'content-type': 'application/x-www-form-urlencoded', body: new URLSearchParams(fields).toString() })
const OLD = 'Wed, 01 Jan 2020 00:00:00 GMT'
const NEW = 'Fri, 01 Jan 2100 00:00:00 GMT'

/** A multipart body with a fixed boundary, so both doors get the same bytes. */
function multipart(fields) {
  const boundary = 'fakelabgoldenboundary'
  const parts = Object.entries(fields).map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
  return { 'content-type': `multipart/form-data; boundary=${boundary}`, body: `${parts.join('')}--${boundary}--\r\n` }
}

/**
 * The requests, in order. Each: [method, target (below the origin), headers, body options].
 * `{ raw }` cases are written to a socket as they are (node door only: a Fetch client cannot send them).
 */
function script() {
  const cases = []
  const add = (method, target, headers = {}, body = undefined) => cases.push({ method, target, headers, body })
  /** `spec`: one of json(), form(), multipart(): its content type joins the headers. */
  const send = (method, target, headers, spec) => add(method, target, { ...headers, 'content-type': spec['content-type'] }, spec.body)
  const v4 = (p) => `/api/v4${p}`

  // -- routing, prefixes, standard headers
  add('GET', '/api/v4/nope', T('root'))
  add('GET', '/api/v4/', T('root'))
  add('GET', '/api/v3/projects', T('root'))
  add('GET', '/-/fakelab/nothing')
  add('GET', v4('/projects/acme/website'), T('root'))
  add('GET', v4('/projects/20/'), T('root'))
  add('GET', v4('/projects/20?id=%3Cbuilt-in+function+id%3E'), T('root'))
  add('HEAD', v4('/projects/20'), T('root'))
  add('HEAD', v4('/projects/20/labels'), T('max'))
  add('HEAD', v4('/nope'), T('root'))
  for (const [m, p] of [['POST', '/user'], ['PUT', '/user'], ['PATCH', '/projects/20/labels'], ['DELETE', '/projects'], ['POST', '/projects/20/labels/110'], ['PATCH', '/groups/10']]) {
    add(m, v4(p), T('root'))
  }
  add('PUT', v4('/user'), { ...T('root'), 'content-type': 'application/json' }, 'not json')
  add('OPTIONS', v4('/projects'), T('root'))

  // -- authentication
  add('GET', v4('/user'), T('root'))
  add('GET', v4('/user?private_token=glpat-root-fakelab'))
  add('GET', v4('/user'), { Authorization: 'Bearer glpat-devon-fakelab' })
  add('GET', v4('/user'), { authorization: 'bearer   glpat-max-fakelab  ' })
  add('GET', v4('/user?access_token=glpat-gina-fakelab'))
  add('GET', v4('/user'))
  add('GET', v4('/user'), { 'PRIVATE-TOKEN': 'nope' })
  add('GET', v4('/projects/20'), { 'PRIVATE-TOKEN': 'nope' })
  add('GET', v4('/user'), { 'JOB-TOKEN': 'x' })
  add('GET', v4('/user'), { 'PRIVATE-TOKEN': 'glpat-nora-expired' })
  add('GET', v4('/user'), { 'PRIVATE-TOKEN': 'glpat-nora-revoked' })
  add('GET', v4('/projects/20'), { 'PRIVATE-TOKEN': 'glpat-devon-readonly' })
  add('GET', v4('/user'), { 'PRIVATE-TOKEN': 'glpat-root-readonly' })
  send('POST', v4('/projects/20/labels'), { 'PRIVATE-TOKEN': 'glpat-devon-readonly' }, json({ name: 'ro', color: 'red' }))
  add('DELETE', v4('/projects/20/labels/111'), { 'PRIVATE-TOKEN': 'glpat-root-readonly' })
  add('PUT', v4('/groups/10/labels/100'), { 'PRIVATE-TOKEN': 'glpat-root-readonly', 'content-type': 'application/json' }, JSON.stringify({ color: 'red' }))
  add('GET', v4('/user?private_token=glpat-root-fakelab'), { 'PRIVATE-TOKEN': 'nope' })

  // -- sudo
  add('GET', v4('/user?sudo=devon'), T('root'))
  add('GET', v4('/user'), { ...T('root'), Sudo: '4' })
  add('GET', v4('/user?sudo=DeVoN'), T('root'))
  add('GET', v4('/user?sudo=devon'))
  add('GET', v4('/user?sudo=devon'), T('max'))
  add('GET', v4('/user?sudo=devon'), { 'PRIVATE-TOKEN': 'glpat-root-readonly' })
  add('GET', v4('/user?sudo=ghost'), T('root'))
  add('GET', v4('/user?sudo=9999'), T('root'))
  add('GET', v4('/projects/21?sudo=nora'), T('root'))
  add('GET', v4('/projects/21/labels?sudo=gina&per_page=1'), T('root'))

  // -- users, groups, projects
  for (const id of ['1', '4', '7', '999', 'abc', '1abc']) add('GET', v4(`/users/${id}`), T('devon'))
  add('GET', v4('/users/4'))
  for (const who of [undefined, 'nora', 'gina', 'root']) {
    add('GET', v4('/projects/21'), who ? T(who) : {})
    add('GET', v4('/groups/11'), who ? T(who) : {})
  }
  for (const p of ['/projects/acme%2Fplatform%2Fapi', '/projects/ACME%2FWebsite', '/projects/website', '/projects/999', '/groups/acme%2Fplatform', '/groups/999', '/groups/10?with_projects=false']) {
    add('GET', v4(p), T('devon'))
  }
  add('GET', v4('/projects'), T('devon'))
  add('GET', v4('/projects'))
  add('GET', v4('/projects?per_page=2&page=2&order_by=name&sort=asc'), T('root'))
  add('GET', v4('/projects?search=web&simple=true'), T('root'))
  add('GET', v4('/projects?membership=true&min_access_level=40'), T('max'))
  add('GET', v4('/projects?visibility=private&owned=true'), T('olive'))
  add('GET', v4('/projects?archived=false&per_page=1'), T('root'))
  add('GET', v4('/projects?pagination=keyset&order_by=id&per_page=2'), T('root'))
  add('GET', v4('/projects?pagination=keyset&order_by=id&sort=desc&per_page=2&id_before=24'), T('root'))
  add('GET', v4('/projects?pagination=keyset&order_by=id&per_page=2&id_after=99'), T('root'))
  add('GET', v4('/projects?pagination=keyset&order_by=name'), T('root'))
  add('GET', v4('/projects?order_by=nope'), T('root'))
  add('GET', v4('/groups'), T('devon'))
  add('GET', v4('/groups'))
  add('GET', v4('/groups?all_available=true&order_by=path&sort=desc&per_page=2'), T('root'))
  add('GET', v4('/groups?skip_groups[]=10&skip_groups[]=11&search=a'), T('root'))
  add('GET', v4('/groups?top_level_only=true&owned=true'), T('olive'))
  add('GET', v4('/groups?min_access_level=50'), T('olive'))

  // -- pagination and Link
  const labels = '/projects/20/labels'
  for (const q of ['per_page=1', 'per_page=1&page=2', 'per_page=1&page=3', 'per_page=1&page=99', 'per_page=200', 'per_page=-5',
    'per_page=0', 'page=0', 'page=-3', 'page=abc', 'per_page=abc', 'per_page=2&search=o&with_counts=true',
    'per_page=1&private_token=glpat-max-fakelab', 'per_page=1&extra[]=b&extra[]=a&h[z]=1&h[a]=2', 'per_page=1&Zeta=1&alpha=2&_x=3&%C3%A9=4',
    'per_page=1&q=a+b%20c%2Bd&r=%26%3D%3F%23', 'per_page=1&include_ancestor_groups=false', 'per_page=1&empty=&nul']) {
    add('GET', v4(`${labels}?${q}`), q.includes('private_token') ? {} : T('max'))
  }
  add('GET', v4('/groups/10/milestones?per_page=1&page=2&state=all&iids[]=1&iids[]=2'), T('devon'))
  add('GET', v4('/projects/20/freeze_periods?per_page=1&page=2'), T('max'))

  // -- project labels
  add('GET', v4(labels), T('max'))
  add('GET', v4(`${labels}?with_counts=true`), T('riley'))
  add('GET', v4(`${labels}?with_counts=true`), T('gina'))
  add('GET', v4('/projects/21/labels'), T('nora'))
  add('GET', v4('/projects/22/labels'), T('olive'))
  add('GET', v4(labels))
  for (const l of ['110', 'docs', 'good%20first%20issue', 'bug', '999', 'nope', '110abc', 'a%2Fb']) add('GET', v4(`${labels}/${l}`), T('devon'))
  add('GET', v4(`${labels}/a/b`), T('devon'))
  send('POST', v4(labels), T('max'), json({ name: 'golden', color: '#123456', description: 'Made *here* <b>x</b>', priority: 3 }))
  send('POST', v4(labels), T('max'), form({ name: 'golden-form', color: 'teal', description: 'form body' }))
  send('POST', v4(labels), T('max'), multipart({ name: 'golden-multi', color: '#abc', priority: '' }))
  add('POST', v4(`${labels}?name=golden-query&color=red`), T('max'))
  add('POST', v4(labels), { ...T('max'), 'content-type': 'application/json' }, JSON.stringify({ name: 'golden', color: 'red' }))
  add('POST', v4(labels), { ...T('max'), 'content-type': 'application/json' }, JSON.stringify({ name: 'x' }))
  add('POST', v4(labels), { ...T('max'), 'content-type': 'application/json' }, JSON.stringify({}))
  add('POST', v4(labels), { ...T('max'), 'content-type': 'application/json' }, JSON.stringify({ name: 'c', color: 'nocolor' }))
  add('POST', v4(labels), { ...T('max'), 'content-type': 'application/json' }, JSON.stringify({ name: 'c', color: 'red', priority: -1 }))
  add('POST', v4(labels), { ...T('gina'), 'content-type': 'application/json' }, JSON.stringify({ name: 'c', color: 'red' }))
  add('POST', v4(labels), { 'content-type': 'application/json' }, JSON.stringify({}))
  add('POST', v4(labels), { ...T('max'), 'content-type': 'application/json' }, '{"name":')
  add('POST', v4(labels), { ...T('max'), 'content-type': 'text/plain' }, 'name=x&color=red')
  add('POST', v4(labels), { ...T('max') }, 'name=golden-notype&color=red')
  add('PUT', v4(`${labels}/golden`), { ...T('max'), 'content-type': 'application/json' }, JSON.stringify({ new_name: 'golden2', color: 'blue', priority: null }))
  add('PUT', v4(`${labels}/golden2`), { ...T('max'), 'content-type': 'application/json' }, JSON.stringify({}))
  add('PUT', v4(labels), { ...T('max'), 'content-type': 'application/json' }, JSON.stringify({ name: 'golden2', description: 'via name' }))
  add('PUT', v4(labels), { ...T('max'), 'content-type': 'application/json' }, JSON.stringify({ label_id: 111, name: 'docs', color: 'red' }))
  add('PUT', v4(`${labels}/110`), { ...T('gina'), 'content-type': 'application/json' }, JSON.stringify({ color: 'red' }))
  add('POST', v4(`${labels}/110/subscribe`), T('devon'))
  add('POST', v4(`${labels}/110/subscribe`), T('devon'))
  add('POST', v4(`${labels}/110/unsubscribe`), T('devon'))
  add('POST', v4(`${labels}/110/unsubscribe`), T('devon'))
  add('POST', v4(`${labels}/999/subscribe`), T('devon'))
  add('DELETE', v4(`${labels}/golden2`), { ...T('max'), 'If-Unmodified-Since': OLD })
  add('DELETE', v4(`${labels}/golden2`), { ...T('max'), 'If-Unmodified-Since': 'garbage' })
  add('DELETE', v4(`${labels}/golden2`), { ...T('max'), 'If-Unmodified-Since': NEW })
  add('DELETE', v4(`${labels}/golden2`), T('max'))
  add('DELETE', v4(`${labels}?name=golden-form`), T('max'))
  add('DELETE', v4(labels), { ...T('max'), 'content-type': 'application/json' }, JSON.stringify({ label_id: 'golden-multi' }))
  add('DELETE', v4(labels), T('max'))
  add('DELETE', v4(`${labels}/111`), T('gina'))
  add('PUT', v4(`${labels}/golden-query/promote`), T('olive'))
  add('PUT', v4(`${labels}/promote`), { ...T('olive'), 'content-type': 'application/json' }, JSON.stringify({ name: 'docs' }))
  add('PUT', v4(`${labels}/promote`), { ...T('devon'), 'content-type': 'application/json' }, JSON.stringify({ name: 'frontend' }))
  add('PUT', v4(`${labels}/promote`), { ...T('olive'), 'content-type': 'application/json' }, JSON.stringify({}))
  add('GET', v4('/groups/10/labels'), T('devon'))

  // -- group labels
  const glabels = '/groups/10/labels'
  add('GET', v4(`${glabels}?with_counts=true&include_descendant_groups=true`), T('devon'))
  add('GET', v4('/groups/11/labels?include_ancestor_groups=false&only_group_labels=false'), T('devon'))
  add('GET', v4('/groups/12/labels'), T('nora'))
  for (const l of ['100', 'bug', 'needs%20review', '999']) add('GET', v4(`${glabels}/${l}`), T('gina'))
  add('POST', v4(glabels), { ...T('olive'), 'content-type': 'application/json' }, JSON.stringify({ name: 'g-golden', color: 'lime', description: '**bold** & <i>it</i>' }))
  add('POST', v4(glabels), { ...T('olive'), 'content-type': 'application/json' }, JSON.stringify({ name: 'g-golden', color: 'lime' }))
  add('POST', v4(glabels), { ...T('devon'), 'content-type': 'application/json' }, JSON.stringify({ name: 'g2', color: 'lime' }))
  add('PUT', v4(`${glabels}/g-golden`), { ...T('olive'), 'content-type': 'application/json' }, JSON.stringify({ new_name: 'g-golden2', description: '' }))
  add('PUT', v4(glabels), { ...T('olive'), 'content-type': 'application/json' }, JSON.stringify({ name: 'g-golden2', color: '#000' }))
  add('PUT', v4(glabels), { ...T('olive'), 'content-type': 'application/json' }, JSON.stringify({ name: 'g-golden2' }))
  add('POST', v4(`${glabels}/101/subscribe`), T('riley'))
  add('POST', v4(`${glabels}/101/subscribe`), T('riley'))
  add('POST', v4(`${glabels}/101/unsubscribe`), T('riley'))
  add('DELETE', v4(`${glabels}/g-golden2`), { ...T('olive'), 'If-Unmodified-Since': OLD })
  add('DELETE', v4(`${glabels}/g-golden2`), T('olive'))
  add('DELETE', v4(`${glabels}?name=needs%20review`), T('olive'))
  add('DELETE', v4(glabels), T('olive'))

  // -- group milestones
  const ms = '/groups/10/milestones'
  for (const q of ['', '?state=active', '?state=closed', '?iids[]=1&iids[]=3', '?iids=1,2', '?title=v1.0', '?search=v', '?include_parent_milestones=true', '?state=bogus', '?sort=due_date_desc']) {
    add('GET', v4(`${ms}${q}`), T('gina'))
  }
  add('GET', v4('/groups/11/milestones?include_parent_milestones=true'), T('devon'))
  add('GET', v4(ms))
  for (const id of ['200', '202', '999', 'abc']) add('GET', v4(`${ms}/${id}`), T('gina'))
  add('GET', v4(`${ms}/200/issues`), T('devon'))
  add('GET', v4(`${ms}/200/issues`), T('nora'))
  add('GET', v4(`${ms}/200/merge_requests?per_page=1`), T('devon'))
  add('GET', v4(`${ms}/200/burndown_events`), T('devon'))
  add('POST', v4(ms), { ...T('devon'), 'content-type': 'application/json' }, JSON.stringify({ title: 'golden-ms', description: 'd', due_date: '2021-12-31', start_date: '2021-05-01' }))
  add('POST', v4(ms), { ...T('devon'), 'content-type': 'application/json' }, JSON.stringify({ title: 'golden-ms' }))
  add('POST', v4(ms), { ...T('devon'), 'content-type': 'application/json' }, JSON.stringify({ due_date: 'nope' }))
  add('POST', v4(ms), { ...T('gina'), 'content-type': 'application/json' }, JSON.stringify({ title: 'x' }))
  add('PUT', v4(`${ms}/200`), { ...T('devon'), 'content-type': 'application/json' }, JSON.stringify({ state_event: 'close', description: 'closing' }))
  add('PUT', v4(`${ms}/200`), { ...T('devon'), 'content-type': 'application/json' }, JSON.stringify({ state_event: 'activate' }))
  add('PUT', v4(`${ms}/200`), { ...T('devon'), 'content-type': 'application/json' }, JSON.stringify({ state_event: 'bogus' }))
  add('PUT', v4(`${ms}/200`), { ...T('devon'), 'content-type': 'application/json' }, JSON.stringify({}))
  add('DELETE', v4(`${ms}/201`), T('devon'))
  add('DELETE', v4(`${ms}/201`), T('max'))
  add('DELETE', v4(`${ms}/201`), T('max'))

  // -- freeze periods
  const fp = '/projects/20/freeze_periods'
  add('GET', v4(fp), T('max'))
  add('GET', v4(fp), T('devon'))
  add('GET', v4(`${fp}/300`), T('max'))
  add('GET', v4(`${fp}/302`), T('max'))
  add('GET', v4(`${fp}/abc`), T('max'))
  add('POST', v4(fp), { ...T('max'), 'content-type': 'application/json' }, JSON.stringify({ freeze_start: '0 1 * * *', freeze_end: '0 2 * * *', cron_timezone: 'America/New_York' }))
  add('POST', v4(fp), { ...T('max'), 'content-type': 'application/json' }, JSON.stringify({ freeze_start: '0 1 * * *', freeze_end: '0 2 * * *' }))
  add('POST', v4(fp), { ...T('max'), 'content-type': 'application/json' }, JSON.stringify({ freeze_start: 'bad cron', freeze_end: '0 2 * * *', cron_timezone: 'Nowhere/City' }))
  add('POST', v4(fp), { ...T('max'), 'content-type': 'application/json' }, JSON.stringify({}))
  add('PUT', v4(`${fp}/300`), { ...T('max'), 'content-type': 'application/json' }, JSON.stringify({ cron_timezone: 'Europe/London' }))
  add('PUT', v4(`${fp}/300`), { ...T('devon'), 'content-type': 'application/json' }, JSON.stringify({ cron_timezone: 'Europe/London' }))
  add('DELETE', v4(`${fp}/301`), { ...T('max'), 'If-Unmodified-Since': OLD })
  add('DELETE', v4(`${fp}/301`), { ...T('max'), 'If-Unmodified-Since': NEW })
  add('DELETE', v4(`${fp}/301`), T('max'))

  // -- limits and malformed input
  add('GET', v4(`/projects?search=${'x'.repeat(10 * 1024)}`), T('root'))
  add('GET', v4(`/projects?search=${'x'.repeat(10 * 1024 - 7)}`), T('root'))
  add('GET', v4(`/projects?search=${'x'.repeat(12 * 1024)}`), T('root'))
  add('GET', v4('/projects?search=%00'), T('root'))
  add('GET', v4('/projects?search=%C3%28'), T('root'))
  add('GET', v4('/projects?search=%ZZ'), T('root'))
  add('GET', v4('/projects?search[a]=%00'), T('root'))
  add('GET', v4('/projects?search=%E2%82%AC'), T('root'))
  add('POST', v4(labels), { ...T('max'), 'content-type': 'application/json' }, JSON.stringify({ name: 'nul\u0000', color: 'red' }))
  add('POST', v4(labels), { ...T('max'), 'content-type': 'application/x-www-form-urlencoded' }, 'name=bad%C3%28&color=red')
  add('POST', v4(labels), { 'PRIVATE-TOKEN': 'glpat-olive-fakelab', 'content-type': 'multipart/form-data; boundary=x' }, 'junk')
  add('POST', v4(labels), { 'PRIVATE-TOKEN': 'nope', 'content-type': 'multipart/form-data; boundary=x' }, 'junk')
  add('POST', v4(labels), { ...T('max'), 'content-type': 'multipart/form-data' }, 'junk')
  add('GET', v4('/projects/%E2%82%AC'), T('root'))
  add('GET', v4('/projects/20/labels/%00'), T('root'))
  add('GET', v4('/projects/20/labels/%C3%28'), T('root'))
  add('GET', v4('/projects/%ZZ'), T('root'))
  add('GET', v4('/projects/%'), T('root'))
  add('GET', v4('/projects/%E9'), T('root'))
  add('GET', v4('/projects/%ED%A0%80/labels'), T('root'))
  add('GET', v4('/user'), { Authorization: 'Bearer \u00e9' })
  add('POST', '/-/fakelab/reset')

  // -- node door only: request heads a Fetch client cannot send
  const raw = (text) => cases.push({ raw: text })
  raw('GET /api/v4/projects/20 HTTP/1.1\r\nHost: gitlab.test\r\nPRIVATE-TOKEN: glpat-root-fakelab\r\nConnection: close\r\n\r\n')
  raw('GET /api/v4/proj ects HTTP/1.1\r\nHost: gitlab.test\r\nConnection: close\r\n\r\n')
  raw('GET /api/v4/proj\u00e9cts HTTP/1.1\r\nHost: gitlab.test\r\nConnection: close\r\n\r\n')
  raw('GET /api/v4/proj\u0001ects HTTP/1.1\r\nHost: gitlab.test\r\nConnection: close\r\n\r\n')
  raw(`GET /api/v4/projects?search=${'x'.repeat(17 * 1024)} HTTP/1.1\r\nHost: gitlab.test\r\nConnection: close\r\n\r\n`)
  raw(`GET /api/v4/projects/${'x'.repeat(17 * 1024)} HTTP/1.1\r\nHost: gitlab.test\r\nConnection: close\r\n\r\n`)
  raw(`GET /api/v4/projects HTTP/1.1\r\nHost: gitlab.test\r\nX-Big: ${'y'.repeat(17 * 1024)}\r\nConnection: close\r\n\r\n`)
  raw('GARBAGE\r\n\r\n')
  raw('GET /api/v4/projects/20/../21 HTTP/1.1\r\nHost: gitlab.test\r\nPRIVATE-TOKEN: glpat-root-fakelab\r\nConnection: close\r\n\r\n')
  raw('GET /api/v4/projects/20#frag HTTP/1.1\r\nHost: gitlab.test\r\nPRIVATE-TOKEN: glpat-root-fakelab\r\nConnection: close\r\n\r\n')
  raw('GET /api/v4/user HTTP/1.1\r\nHost: gitlab.test\r\nPRIVATE-TOKEN: glpat-root-fakelab\r\nPRIVATE-TOKEN: glpat-max-fakelab\r\nConnection: close\r\n\r\n')
  raw('GET /api/v4/user HTTP/1.1\r\nHost: gitlab.test\r\nAuthorization: Bearer glpat-max-fakelab\r\nAuthorization: Bearer glpat-root-fakelab\r\nConnection: close\r\n\r\n')
  raw('GET /api/v4/user HTTP/1.1\r\nHost: [bad\r\nPRIVATE-TOKEN: glpat-root-fakelab\r\nConnection: close\r\n\r\n')
  const big = 10 * 1024 * 1024 + 1
  raw(`POST /api/v4/projects/20/labels HTTP/1.1\r\nHost: gitlab.test\r\nPRIVATE-TOKEN: glpat-max-fakelab\r\nContent-Type: application/json\r\nContent-Length: ${big}\r\nConnection: close\r\n\r\n${'z'.repeat(big)}`)

  // -- last: cases whose request count changed between versions (MSW used to find no handler)
  add('GET', '/api/v3', T('root'))
  add('GET', '/api/v4', T('root'))
  add('GET', '/-/fakelab', T('root'))
  add('GET', '/api/v5/projects', T('root'))
  return cases
}

// ---- doors ------------------------------------------------------------------------------------

function show(text) {
  // Keep the dump line-oriented and printable: escape control characters and long runs.
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)
    .replace(/(.)\1{63,}/g, (run, c) => `${c}{×${run.length}}`)
}

function label(c) {
  return c.raw !== undefined ? `RAW ${show(c.raw.split('\r\n')[0])}` : `${c.method} ${show(c.target)}${c.body !== undefined ? `  body=${show(c.body)}` : ''}`
}

async function viaNode(url, c) {
  const { hostname, port } = new URL(url)
  if (c.raw !== undefined) {
    return new Promise((resolve) => {
      const socket = net.connect(Number(port), hostname)
      const chunks = []
      socket.on('data', (d) => chunks.push(d))
      const done = () => {
        const text = Buffer.concat(chunks).toString('latin1')
        resolve(text === '' ? '(connection closed, no answer)' : show(text.replace(/\r\nDate: [^\r]*/i, '').replaceAll('\r\n', '\n')))
      }
      socket.on('end', done)
      socket.on('error', (e) => { chunks.length === 0 ? resolve(`(socket error ${e.code})`) : done() })
      socket.setTimeout(3000, () => { socket.destroy(); done() })
      socket.write(Buffer.from(c.raw, 'latin1'))
    })
  }
  return new Promise((resolve) => {
    // A fixed Host: URLs in bodies and Link headers then name gitlab.test, not the port of this run.
    const headers = { host: 'gitlab.test', ...c.headers }
    // node's client frames a DELETE body with neither length nor chunking unless told.
    if (c.body !== undefined) headers['content-length'] = String(Buffer.byteLength(c.body))
    const req = http.request({ host: hostname, port, method: c.method, path: c.target, headers, agent: false }, (res) => {
      const chunks = []
      res.on('data', (d) => chunks.push(d))
      res.on('end', () => {
        const lines = [`${res.statusCode} ${res.statusMessage}`]
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          if (res.rawHeaders[i].toLowerCase() === 'date') continue
          lines.push(`${res.rawHeaders[i]}: ${show(res.rawHeaders[i + 1])}`)
        }
        lines.push('', show(Buffer.concat(chunks).toString('utf8')))
        resolve(lines.join('\n'))
      })
    })
    req.on('error', (e) => resolve(`(request error ${e.code ?? e.message})`))
    if (c.body !== undefined) req.end(Buffer.from(c.body, 'utf8'))
    else req.end()
  })
}

async function viaMsw(c) {
  if (c.raw !== undefined) return '(node door only)'
  let res
  try {
    res = await fetch(`http://gitlab.test${c.target}`, { method: c.method, headers: c.headers, body: c.body, redirect: 'manual' })
  } catch (error) {
    return `(fetch rejected: ${error.name}: ${show(String(error.cause?.message ?? error.message).split('\n')[0])})`
  }
  const lines = [`${res.status} ${res.statusText}`]
  for (const [name, value] of res.headers) lines.push(`${name}: ${show(value)}`)
  const body = await res.text()
  // MSW's own 500 carries a stack trace with file paths; keep only its first line.
  lines.push('', show(res.status === 500 && body.includes('"stack"') ? `${body.slice(0, 200)}… (stack trace cut)` : body))
  return lines.join('\n')
}

async function dump(dist) {
  const { createSimulator } = await import(pathToFileURL(join(dist, 'index.js')).href)
  const { loadDefaultScenario, startServer } = await import(pathToFileURL(join(dist, 'node.js')).href)
  const { createHandlers } = await import(pathToFileURL(join(dist, 'msw.js')).href)
  const { setupServer } = await import('msw/node')
  const scenario = await loadDefaultScenario()
  const cases = script()
  const out = [`# fakelab golden dump: ${cases.length} requests per door`]
  const quiet = { error: () => {}, warn: () => {} }

  const nodeSim = createSimulator({ scenario, onError: () => {} })
  const server = await startServer(nodeSim, { port: 0 })
  try {
    for (const [i, c] of cases.entries()) out.push(`\n### node ${String(i).padStart(3, '0')} ${label(c)}\n${await viaNode(server.url, c)}`)
  } finally {
    await server.close()
  }

  const mswSim = createSimulator({ scenario, onError: () => {} })
  const msw = setupServer(...createHandlers(mswSim, { baseUrl: 'http://gitlab.test' }))
  const saved = { error: console.error, warn: console.warn }
  Object.assign(console, quiet) // MSW prints unhandled requests and its own errors
  msw.listen({ onUnhandledRequest: 'error' })
  try {
    for (const [i, c] of cases.entries()) out.push(`\n### msw ${String(i).padStart(3, '0')} ${label(c)}\n${await viaMsw(c)}`)
  } finally {
    msw.close()
    Object.assign(console, saved)
  }
  return `${out.join('\n')}\n`
}

// ---- --base REF -------------------------------------------------------------------------------

function compareWithBase(ref) {
  const dir = mkdtempSync(join(tmpdir(), 'fakelab-golden-'))
  try {
    execFileSync('sh', ['-c', `git -C "${ROOT}" archive "${ref}" | tar -x -C "${dir}"`], { stdio: 'inherit' })
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'))
    // Each tree builds as `npm run build` does: the embedded default scenario is generated first
    // where the tree has the script (it is git-ignored, so `git archive` leaves it out).
    for (const cwd of [dir, ROOT]) {
      const embed = join(cwd, 'scripts', 'embed-default-scenario.mjs')
      if (existsSync(embed)) execFileSync(process.execPath, [embed], { cwd, stdio: 'inherit' })
      execFileSync(join(ROOT, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.build.json'], { cwd, stdio: 'inherit' })
    }
    const before = join(dir, 'golden-before.txt')
    const after = join(dir, 'golden-after.txt')
    const self = fileURLToPath(import.meta.url)
    execFileSync(process.execPath, [self, '--dist', join(dir, 'dist'), '--out', before], { stdio: 'inherit' })
    execFileSync(process.execPath, [self, '--dist', join(ROOT, 'dist'), '--out', after], { stdio: 'inherit' })
    try {
      execFileSync('diff', ['-u', '--label', `golden@${ref}`, '--label', 'golden@worktree', before, after], { stdio: 'inherit' })
      process.stdout.write(`golden: no difference between ${ref} and this worktree\n`)
      return 0
    } catch {
      return 1
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

// ---- main -------------------------------------------------------------------------------------

if (option('--base') !== undefined) {
  process.exitCode = compareWithBase(option('--base'))
} else {
  const dist = resolve(option('--dist') ?? join(ROOT, 'dist'))
  const text = await dump(dist)
  const out = option('--out')
  if (out) writeFileSync(out, text)
  else process.stdout.write(text)
}
