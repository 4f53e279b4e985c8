/**
 * The three forms of a verify report: text for terminals (one line per route key, then its first
 * differences as path, recorded value and simulated value), JSON for machines, and one
 * self-contained HTML page for people (one section per route, differing fields highlighted;
 * every embedded string escaped). Browser-safe. Source: issue 15 ("Output").
 * @module
 */
import { escapeUTF8 } from 'entities'
import type { VerifyDifference } from './compare.js'
import type { VerifyReport } from './verify.js'

/** Report formats of `fakelab verify --report`. */
export const REPORT_FORMATS = ['text', 'json', 'html'] as const
/** One of {@link REPORT_FORMATS}. */
export type ReportFormat = (typeof REPORT_FORMATS)[number]

const MAX_VALUE_CHARS = 80

/** A value for one line: JSON, cut at 80 characters; `(absent)` for a missing side. */
export function formatValue(value: unknown, present: boolean): string {
  if (!present) return '(absent)'
  const text = value === undefined ? 'undefined' : JSON.stringify(value)
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS - 1)}…` : text
}

/** `exchanges identical` as a percentage with one decimal (`97.5%`); `100%` when there are none. */
export function share(identical: number, exchanges: number): string {
  if (exchanges === 0 || identical === exchanges) return '100%'
  return `${(Math.floor((identical / exchanges) * 1000) / 10).toFixed(1)}%`
}

/** `; 2 ids renamed; 3 differences ignored` (empty when neither happened). */
function notes(report: VerifyReport): string {
  const parts: string[] = []
  if (report.renamedIds.length > 0) parts.push(`${report.renamedIds.length} created record${report.renamedIds.length === 1 ? '' : 's'} renamed`)
  if (report.ignored > 0) parts.push(`${report.ignored} difference${report.ignored === 1 ? '' : 's'} ignored`)
  return parts.map((p) => `; ${p}`).join('')
}

function differenceLine(d: VerifyDifference): string {
  return `${d.path} (${d.kind}): recorded ${formatValue(d.recorded, 'recorded' in d)}, simulated ${formatValue(d.simulated, 'simulated' in d)}`
}

/**
 * The text summary: per report, one line per route (`GET /projects/:id/labels: 41/41 exchanges
 * identical`), each differing route followed by its first differences, then the per-area figures
 * and a total line.
 */
export function formatTextReport(reports: readonly VerifyReport[]): string {
  const lines: string[] = []
  for (const report of reports) {
    lines.push(`${report.source} (${report.exchanges} exchanges, seeded from the ${report.seededFrom}${notes(report)})`)
    for (const route of report.routes) {
      lines.push(`  ${route.route}: ${route.identical}/${route.exchanges} exchanges identical`)
      for (const d of route.firstDifferences) lines.push(`    #${d.exchange} ${differenceLine(d)}`)
      const more = route.differenceCount - route.firstDifferences.length
      if (more > 0) lines.push(`    … and ${more} more difference${more === 1 ? '' : 's'}`)
    }
  }
  const areas = mergeAreas(reports)
  if (areas.length > 0) {
    lines.push('By area:')
    for (const a of areas) lines.push(`  ${a.area}: ${a.identical}/${a.exchanges} identical (${share(a.identical, a.exchanges)})`)
  }
  const exchanges = reports.reduce((n, r) => n + r.exchanges, 0)
  const identical = reports.reduce((n, r) => n + r.identical, 0)
  lines.push(`Total: ${identical}/${exchanges} exchanges identical after normalisation (${share(identical, exchanges)})`)
  return `${lines.join('\n')}\n`
}

/** Per-area figures over several reports, sorted by area. */
export function mergeAreas(reports: readonly VerifyReport[]): { area: string; exchanges: number; identical: number }[] {
  const out = new Map<string, { area: string; exchanges: number; identical: number }>()
  for (const report of reports) {
    for (const a of report.areas) {
      const sum = out.get(a.area) ?? { area: a.area, exchanges: 0, identical: 0 }
      sum.exchanges += a.exchanges
      sum.identical += a.identical
      out.set(a.area, sum)
    }
  }
  return [...out.values()].sort((a, b) => (a.area < b.area ? -1 : 1))
}

/** The JSON report: `{ reports: VerifyReport[], exchanges, identical, clean }`, two-space indented. */
export function formatJsonReport(reports: readonly VerifyReport[]): string {
  const exchanges = reports.reduce((n, r) => n + r.exchanges, 0)
  const identical = reports.reduce((n, r) => n + r.identical, 0)
  return `${JSON.stringify({ exchanges, identical, clean: identical === exchanges, areas: mergeAreas(reports), reports }, null, 2)}\n`
}

const esc = (text: string): string => escapeUTF8(text)

const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:2rem;color:#1f2328;max-width:1100px}
h1{font-size:1.4rem}h2{font-size:1.05rem;margin:1.6rem 0 .4rem}h3{font-size:.95rem;margin:1rem 0 .3rem;font-family:ui-monospace,monospace}
.ok{color:#1a7f37}.bad{color:#cf222e}.figure{font-size:1.1rem}
table{border-collapse:collapse;width:100%;margin:.3rem 0}td,th{border:1px solid #d0d7de;padding:.25rem .5rem;text-align:left;vertical-align:top}
th{background:#f6f8fa}code{font-family:ui-monospace,monospace;font-size:.9em;word-break:break-all}
tr.diff td.path{background:#fff8c5}td.rec{background:#ffebe9}td.sim{background:#dafbe1}
section{border-top:1px solid #d0d7de}
`

/**
 * A self-contained HTML page: the figure, one table of areas, then per cassette one section per
 * route with its count and a table of its first differences (path, kind, recorded, simulated),
 * the differing cells highlighted. No scripts, no external resources; every string is escaped.
 */
export function formatHtmlReport(reports: readonly VerifyReport[]): string {
  const exchanges = reports.reduce((n, r) => n + r.exchanges, 0)
  const identical = reports.reduce((n, r) => n + r.identical, 0)
  const parts: string[] = [
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>fakelab verify</title>',
    `<style>${STYLE}</style></head><body>`,
    '<h1>fakelab verify</h1>',
    `<p class="figure ${identical === exchanges ? 'ok' : 'bad'}">${identical}/${exchanges} exchanges identical after normalisation (${esc(share(identical, exchanges))})</p>`,
    '<table><tr><th>Area</th><th>Identical</th><th>Share</th></tr>',
    ...mergeAreas(reports).map((a) => `<tr><td>${esc(a.area)}</td><td>${a.identical}/${a.exchanges}</td><td class="${a.identical === a.exchanges ? 'ok' : 'bad'}">${esc(share(a.identical, a.exchanges))}</td></tr>`),
    '</table>',
  ]
  for (const report of reports) {
    parts.push(`<h2>${esc(report.source)} <small>(${report.exchanges} exchanges, seeded from the ${esc(report.seededFrom)}${esc(notes(report))})</small></h2>`)
    for (const route of report.routes) {
      const cls = route.identical === route.exchanges ? 'ok' : 'bad'
      parts.push(`<section><h3>${esc(route.route)}: <span class="${cls}">${route.identical}/${route.exchanges} exchanges identical</span></h3>`)
      if (route.firstDifferences.length > 0) {
        parts.push('<table><tr><th>#</th><th>Path</th><th>Kind</th><th>Recorded</th><th>Simulated</th></tr>')
        for (const d of route.firstDifferences) {
          parts.push(
            `<tr class="diff"><td>${d.exchange}</td><td class="path"><code>${esc(d.path)}</code></td><td>${esc(d.kind)}</td>` +
              `<td class="rec"><code>${esc(formatValue(d.recorded, 'recorded' in d))}</code></td><td class="sim"><code>${esc(formatValue(d.simulated, 'simulated' in d))}</code></td></tr>`,
          )
        }
        parts.push('</table>')
        const more = route.differenceCount - route.firstDifferences.length
        if (more > 0) parts.push(`<p>… and ${more} more difference${more === 1 ? '' : 's'}</p>`)
      }
      parts.push('</section>')
    }
  }
  parts.push('</body></html>\n')
  return parts.join('\n')
}

/** The report in the given format. */
export function formatReport(reports: readonly VerifyReport[], format: ReportFormat): string {
  if (format === 'json') return formatJsonReport(reports)
  if (format === 'html') return formatHtmlReport(reports)
  return formatTextReport(reports)
}
