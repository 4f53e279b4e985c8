/**
 * `verifyCassette` and `fakelab verify` (issue 15): a clean session verifies clean; a cassette
 * altered in known ways gives exactly those differences; each normalisation and ignore rule has a
 * case that fails without it; bad input exits 2.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Har } from 'har-format'
import { afterAll, describe, expect, it } from 'vitest'
import { formatHtmlReport, IgnoreSyntaxError, parseIgnoreRule, verifyCassette, type VerifyReport } from '../../src/node.js'
import { editBody, headerOf, runCli, sessionCassette, setHeader, upstreamScenario } from './support.js'

const tmp = mkdtempSync(join(tmpdir(), 'fakelab-verify-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

function write(name: string, content: string | Har): string {
  const path = join(tmp, name)
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content))
  return path
}

/** Every difference of a report as `#<exchange> <path> <kind>`. */
function differences(report: VerifyReport): string[] {
  return report.results.flatMap((r) => r.differences.map((d) => `#${r.index} ${d.path} ${d.kind}`))
}

/** The committed session with five known changes. */
function alteredCassette(): Har {
  const har = sessionCassette()
  editBody(har, 1, (user) => ({ ...user, pronouns: 'they/them' })) // a field the simulator lacks
  const page = har.log.entries[2]!
  setHeader(page, 'link', headerOf(page, 'link')!.replace(/per_page=2(&[^>]*>; rel="next")/, 'per_page=3$1'))
  editBody(har, 11, (labels: unknown[]) => [labels[1], labels[0], ...labels.slice(2)])
  editBody(har, 12, (label) => ({ ...label, color: '#00FF00' }))
  har.log.entries[34]!.response.status = 403
  return har
}

describe('verifyCassette', () => {
  it('a session recorded against an unmodified upstream verifies clean', async () => {
    const report = await verifyCassette(sessionCassette(), { scenario: await upstreamScenario(), source: 'session' })
    expect(differences(report)).toEqual([])
    expect(report).toMatchObject({ clean: true, exchanges: 44, identical: 44, seededFrom: 'scenario' })
    expect(report.routes.find((r) => r.route === 'GET /projects/:id/labels')).toMatchObject({ exchanges: 4, identical: 4, area: 'labels' })
  })

  it('a cassette altered in five known ways gives exactly those five differences', async () => {
    const report = await verifyCassette(alteredCassette(), { scenario: await upstreamScenario() })
    expect(differences(report)).toEqual([
      '#1 $.pronouns missing',
      '#2 headers.link.next.per_page value',
      '#11 $ item-order',
      '#12 $.color value',
      '#34 status status',
    ])
    expect(report.clean).toBe(false)
    const first = (i: number) => report.results[i]!.differences[0]
    expect(first(1)).toEqual({ path: '$.pronouns', kind: 'missing', recorded: 'they/them' })
    expect(first(2)).toEqual({ path: 'headers.link.next.per_page', kind: 'value', recorded: '3', simulated: '2' })
    expect(first(11)).toEqual({ path: '$', kind: 'item-order', recorded: [111, 100, 101, 110, 112, 102], simulated: [100, 111, 101, 110, 112, 102] })
    expect(first(12)).toEqual({ path: '$.color', kind: 'value', recorded: '#00FF00', simulated: '#FF0000' })
    expect(first(34)).toEqual({ path: 'status', kind: 'status', recorded: 403, simulated: 404 })
  })

  it('seeds itself from the cassette, as fakelab import does, when no scenario is given', async () => {
    const report = await verifyCassette(sessionCassette())
    expect(report.seededFrom).toBe('cassette')
    expect(report.exchanges).toBe(44)
    expect(report.routes.find((r) => r.route === 'GET /projects/:id/labels')).toMatchObject({ exchanges: 4, identical: 4 })
  })

  it('reports a changed type, an extra field, a changed key order and a swapped timestamp order', async () => {
    const har = sessionCassette()
    editBody(har, 12, (label) => {
      const { id, name, ...rest } = label
      delete rest.priority
      return { name, id, ...rest, subscribed: 'no' } // key order, a type, a field the simulator adds
    })
    editBody(har, 29, (period) => ({ ...period, created_at: '2021-04-02T00:00:00.000Z', updated_at: '2021-04-01T00:00:00.000Z' }))
    const report = await verifyCassette(har, { scenario: await upstreamScenario() })
    expect(differences(report)).toEqual(['#12 $.subscribed type', '#12 $.priority extra', '#12 $ key-order', '#29 $ timestamp-order'])
  })
})

describe('normalisations each hide a real volatility, and only that', () => {
  /** The committed session, with the label the session creates recorded under id 150 instead of 120. */
  function renumbered(): Har {
    const text = JSON.stringify(sessionCassette())
    return JSON.parse(text.replace(/labels\/120/g, 'labels/150').replace(/\{\\"id\\":120,/g, '{\\"id\\":150,')) as Har
  }

  it.each([
    ['ids', renumbered, ['#14 $.id value', '#15 status status']],
    ['timestamps', () => {
      const har = sessionCassette()
      editBody(har, 30, (period) => ({ ...period, created_at: '2019-01-01T00:00:00.000Z', updated_at: '2019-01-01T00:00:00.000Z' }))
      return har
    }, ['#30 $.created_at value', '#30 $.updated_at value']],
    ['secrets', sessionCassette, ['#9 $.runners_token value', '#10 $.runners_token value']],
    ['urls', sessionCassette, ['#1 $.web_url value']],
  ] as const)('%s: clean with it, differing without it', async (name, make, without) => {
    const scenario = await upstreamScenario()
    expect(differences(await verifyCassette(make(), { scenario }))).toEqual([])
    const off = differences(await verifyCassette(make(), { scenario, normalise: { [name]: false } }))
    for (const d of without) expect(off).toContain(d)
  })

  it('the report lists the id map: the created label recorded as 150 is 120 here', async () => {
    const report = await verifyCassette(renumbered(), { scenario: await upstreamScenario() })
    expect(report.renamedIds).toEqual([{ kind: 'labels', recorded: 150, simulated: 120 }])
  })

  it('urls: a GitLab under a relative URL root is the simulator at /api/v4', async () => {
    const text = JSON.stringify(sessionCassette()).replace(/http:\/\/gitlab\.example\.com\//g, 'http://gitlab.example.com/gitlab/')
    expect(text).toContain('http://gitlab.example.com/gitlab/api/v4/projects/20')
    expect(differences(await verifyCassette(text, { scenario: await upstreamScenario() }))).toEqual([])
  })

  it('a timestamp of another shape still differs', async () => {
    const har = sessionCassette()
    editBody(har, 30, (period) => ({ ...period, created_at: '2021-04-01T12:00:00Z' }))
    expect(differences(await verifyCassette(har, { scenario: await upstreamScenario() }))).toEqual(['#30 $.created_at value'])
  })

  it('one placeholder standing for two different secrets differs', async () => {
    const har = sessionCassette()
    // [REDACTED-2] is acme's runners token; acme/platform's is a different one.
    editBody(har, 10, (group) => ({ ...group, runners_token: '[REDACTED-2]' }))
    expect(differences(await verifyCassette(har, { scenario: await upstreamScenario() }))).toEqual(['#10 $.runners_token value'])
  })
})

describe('ignore rules', () => {
  it.each([
    ['$.color', ['#12 $.color value']],
    ['**.color', ['#12 $.color value']],
    ['$.*', ['#12 $.color value', '#1 $.pronouns missing']],
    ['GET /projects/:id/labels/:label_id $.color', ['#12 $.color value']],
    ['headers.link.*.per_page', ['#2 headers.link.next.per_page value']],
    ['status', ['#34 status status']],
    ['$', ['#11 $ item-order']],
  ])('%s removes exactly its differences', async (rule, removed) => {
    const scenario = await upstreamScenario()
    const all = differences(await verifyCassette(alteredCassette(), { scenario }))
    const report = await verifyCassette(alteredCassette(), { scenario, ignore: [rule] })
    expect(differences(report)).toEqual(all.filter((d) => !removed.includes(d)))
    expect(report.results.reduce((n, r) => n + r.ignored, 0)).toBe(removed.length)
    expect(report.ignored).toBe(removed.length)
  })

  it('a route-limited rule leaves other routes alone', async () => {
    const report = await verifyCassette(alteredCassette(), { scenario: await upstreamScenario(), ignore: ['GET /user $.color'] })
    expect(differences(report)).toContain('#12 $.color value')
  })

  it.each(['', '$.a[', 'foo..bar', '$.***', '$.a b', '$[x]'])('%j is refused with IgnoreSyntaxError', (rule) => {
    expect(() => parseIgnoreRule(rule)).toThrow(IgnoreSyntaxError)
  })

  it('matches * as one segment and ** as any depth', () => {
    expect(parseIgnoreRule('$[*].id').matches('$[3].id', 'GET /x')).toBe(true)
    expect(parseIgnoreRule('$[*].id').matches('$[3].a.id', 'GET /x')).toBe(false)
    expect(parseIgnoreRule('$.**.id').matches('$[3].a.id', 'GET /x')).toBe(true)
    expect(parseIgnoreRule('$.**.id').matches('$.id', 'GET /x')).toBe(true)
    expect(parseIgnoreRule('$["a.b"]').matches('$["a.b"]', 'GET /x')).toBe(true)
  })
})

describe('the HTML report', () => {
  it('is one self-contained page, one section per route, differing fields highlighted and every string escaped', async () => {
    const har = alteredCassette()
    editBody(har, 12, (label) => ({ ...label, color: '</code><script>alert(1)</script>' }))
    const report = await verifyCassette(har, { scenario: await upstreamScenario(), source: 'a<b>.har' })
    const html = formatHtmlReport([report])
    expect(html).not.toMatch(/<script|<link|src=|href=/i)
    expect(html).toContain('&lt;/code&gt;&lt;script&gt;alert(1)&lt;/script&gt;')
    expect(html).toContain('a&lt;b&gt;.har')
    expect(html.match(/<section>/g)).toHaveLength(report.routes.length)
    expect(html).toContain('<tr class="diff"><td>12</td><td class="path"><code>$.color</code></td><td>value</td>')
  })
})

describe('fakelab verify (CLI)', () => {
  it('exits 0 on a clean session and prints one line per route key', async () => {
    const { code, stdout, stderr } = await runCli(['verify', write('clean.har', sessionCassette()), '--scenario', 'scenarios/default.yaml'])
    expect(stderr).toBe('')
    expect(code).toBe(0)
    expect(stdout).toContain('  GET /projects/:id/labels: 4/4 exchanges identical\n')
    expect(stdout).toContain('Total: 44/44 exchanges identical after normalisation (100%)\n')
  })

  it('exits 1 on the altered cassette and shows the first differences with path, recorded and simulated', async () => {
    const { code, stdout } = await runCli(['verify', write('altered.har', alteredCassette()), '--scenario', 'scenarios/default.yaml'])
    expect(code).toBe(1)
    expect(stdout).toContain('  GET /projects/:id/labels/:label_id: 0/1 exchanges identical\n    #12 $.color (value): recorded "#00FF00", simulated "#FF0000"\n')
    expect(stdout).toContain('#34 status (status): recorded 403, simulated 404')
    expect(stdout).toContain('Total: 39/44 exchanges identical after normalisation (88.6%)')
  })

  it('exits 0 when --ignore and --config cover every difference', async () => {
    const config = write('verify.yaml', 'ignore:\n  - $.pronouns\n  - "**.color"\n  - status\n')
    const args = ['verify', write('altered2.har', alteredCassette()), '-s', 'scenarios/default.yaml', '--config', config, '--ignore', 'headers.link.next.*', '--ignore', '$']
    const { code, stdout } = await runCli(args)
    expect(stdout).toContain('44/44')
    expect(code).toBe(0)
  })

  it('writes --report json and --report html', async () => {
    const file = write('altered3.har', alteredCassette())
    const json = await runCli(['verify', file, '-s', 'scenarios/default.yaml', '--report', 'json'])
    expect(json.code).toBe(1)
    const parsed = JSON.parse(json.stdout) as { exchanges: number; identical: number; clean: boolean; reports: VerifyReport[] }
    expect(parsed).toMatchObject({ exchanges: 44, identical: 39, clean: false })
    expect(parsed.reports[0]!.results[12]!.differences).toEqual([{ path: '$.color', kind: 'value', recorded: '#00FF00', simulated: '#FF0000' }])
    const out = join(tmp, 'report.html')
    const html = await runCli(['verify', file, '-s', 'scenarios/default.yaml', '--report', 'html', '--out', out])
    expect(html.code).toBe(1)
    expect(html.stderr).toContain(`wrote the html report to ${out}`)
  })

  it.each([
    ['not a HAR file', () => [write('not.har', '{"hello": 1}')], /not a HAR cassette/],
    ['not JSON', () => [write('broken.har', '{')], /invalid JSON/],
    ['an unreadable cassette', () => [join(tmp, 'missing.har')], /cannot read .*missing\.har/],
    ['a bad ignore rule', () => [write('ok.har', sessionCassette()), '--ignore', '$.a['], /bad ignore rule "\$\.a\[": expected/],
    ['a config that is not a mapping', () => [write('ok2.har', sessionCassette()), '--config', write('bad.yaml', '- a\n')], /expected a mapping/],
    ['an unknown config key', () => [write('ok3.har', sessionCassette()), '--config', write('bad2.yaml', 'ignores: []\n')], /unknown key "ignores"/],
  ])('exits 2 on %s, with a clear message and no stack trace', async (_name, args, message) => {
    const { code, stdout, stderr } = await runCli(['verify', ...args()])
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr).toMatch(message)
    expect(stderr).not.toMatch(/\n\s+at /)
  })
})
