/**
 * The project's own fidelity figure (issue 15, part 4): `verifyCassette` over the whole corpus,
 * the client sessions in `cassettes/*.har` (python-gitlab, @gitbeaker/rest, curl, recorded by
 * `npm run corpus` through `fakelab record` against a fakelab upstream on the default scenario)
 * and every cassette of the record/replay tests (`fixtures/cassettes/*.har.json`).
 *
 * Two figures, both asserted and printed per area:
 * - seeded from the upstream's own scenario: must be 100%. The upstream is fakelab, so anything
 *   else means the simulator's answers changed since the corpus was recorded (re-record it).
 * - seeded from each cassette, as a user with a real GitLab runs it: the share of exchanges that
 *   `fakelab import` plus the simulator reproduce. The table of docs/verify.md ("The project's own
 *   figure") must show exactly this figure.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { formatTextReport, loadCassetteFile, verifyCassette, type VerifyReport } from '../../src/node.js'
import { mergeAreas, share } from '../../src/verify/report.js'
import { ROOT, upstreamScenario } from './support.js'

const CORPUS = [
  ...readdirSync(join(ROOT, 'cassettes')).filter((f) => f.endsWith('.har')).map((f) => join('cassettes', f)),
  ...readdirSync(join(ROOT, 'fixtures', 'cassettes')).filter((f) => f.endsWith('.har.json')).map((f) => join('fixtures', 'cassettes', f)),
].sort()

async function verifyAll(seeded: 'cassette' | 'scenario'): Promise<VerifyReport[]> {
  const scenario = seeded === 'scenario' ? await upstreamScenario() : undefined
  const reports: VerifyReport[] = []
  for (const file of CORPUS) reports.push(await verifyCassette(await loadCassetteFile(join(ROOT, file)), { source: file, ...(scenario ? { scenario } : {}) }))
  return reports
}

/** `| area | identical | share |` rows, as docs/verify.md shows them. */
function figureRows(reports: VerifyReport[]): string[] {
  const rows = mergeAreas(reports).map((a) => `| ${a.area} | ${a.identical}/${a.exchanges} | ${share(a.identical, a.exchanges)} |`)
  const exchanges = reports.reduce((n, r) => n + r.exchanges, 0)
  const identical = reports.reduce((n, r) => n + r.identical, 0)
  return [...rows, `| **all** | **${identical}/${exchanges}** | **${share(identical, exchanges)}** |`]
}

describe('the verify corpus', () => {
  it('holds the three client sessions and the record/replay cassettes, hundreds of exchanges in all', async () => {
    expect(CORPUS).toEqual(expect.arrayContaining(['cassettes/curl.har', 'cassettes/gitbeaker.har', 'cassettes/python-gitlab.har', 'fixtures/cassettes/gitbeaker-session.har.json']))
    const exchanges = (await Promise.all(CORPUS.map((f) => loadCassetteFile(join(ROOT, f))))).reduce((n, har) => n + har.log.entries.length, 0)
    expect(exchanges).toBeGreaterThanOrEqual(100)
    expect(exchanges).toBeLessThan(1000)
  })

  it('holds no secret of the upstream (the recorder redacted every token)', () => {
    for (const file of CORPUS) expect(readFileSync(join(ROOT, file), 'utf8'), file).not.toMatch(/glpat-|oauth-[a-z]+-fakelab|GR1348941|fakelab-runner-\d+-token|job-token-/)
  })

  it('verifies 100% identical against the upstream it was recorded from', async () => {
    const reports = await verifyAll('scenario')
    const text = formatTextReport(reports)
    console.log(`Corpus seeded from the upstream's scenario:\n${text.slice(text.indexOf('By area:'))}`)
    expect(reports.flatMap((r) => r.results.filter((x) => x.differences.length > 0).map((x) => `${r.source} #${x.index} ${x.route}: ${x.differences[0]!.path}`))).toEqual([])
  })

  it('seeded from each cassette, gives the per-area figure docs/verify.md shows', async () => {
    const reports = await verifyAll('cassette')
    const rows = figureRows(reports)
    console.log(`Corpus seeded from each cassette (the figure of docs/verify.md):\n${rows.join('\n')}`)
    const page = readFileSync(join(ROOT, 'docs', 'verify.md'), 'utf8')
    const section = page.slice(page.indexOf('<!-- verify-figure:start -->'), page.indexOf('<!-- verify-figure:end -->'))
    const shown = section.split('\n').filter((line) => /^\| (?!Area|---)/.test(line))
    expect(shown, 'update the table of docs/verify.md (and the figure in the text) to the figure printed above').toEqual(rows)
  })
})
