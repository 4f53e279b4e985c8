/**
 * The static route table (issue 39 item 4): `src/resources/route-table.ts` must be exactly what the
 * areas' `load()` give (`npm run route-table` writes it), since a start registers routes from it and
 * loads an area only on its first request; and a start must run no area's route modules.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { routeTableSource } from '../../scripts/route-table.mjs'
import { allRoutes, apiRouteSource, areas, currentRouteTable, loadRoute, webRouteSource } from '../../src/resources/index.js'
import { ROUTE_TABLE } from '../../src/resources/route-table.js'

describe('the static route table', () => {
  it('is what the areas load, key for key and in order (else: npm run route-table)', async () => {
    const current = await currentRouteTable()
    expect(ROUTE_TABLE).toEqual(current)
    expect(readFileSync(new URL('../../src/resources/route-table.ts', import.meta.url), 'utf8')).toBe(routeTableSource(current))
  })

  it('names only mounted areas, and every area with a loader has its entry', () => {
    const mounted = areas.filter((area) => area.load).map((area) => area.name)
    expect(Object.keys(ROUTE_TABLE).sort()).toEqual([...mounted].sort())
  })

  // The engine's router takes the table as a source and does not check it for duplicates.
  it('holds every key once, API and web routes apart, across all areas', () => {
    for (const kind of ['api', 'web'] as const) {
      const keys = Object.values(ROUTE_TABLE).flatMap((table) => table[kind] ?? [])
      expect(keys.length).toBeGreaterThan(0)
      expect(new Set(keys).size).toBe(keys.length)
    }
  })

  it('makes each entry once, whichever way it is asked for (a bucket of the router or the whole list)', () => {
    const entry = apiRouteSource.withFirstSegment('projects', 3).find((route) => route.key === 'GET /projects/:id/labels')!
    expect(entry).toMatchObject({ key: 'GET /projects/:id/labels', method: 'GET', path: '/projects/:id/labels', area: 'labels', web: false })
    expect(allRoutes()).toContain(entry)
    expect(apiRouteSource.withFirstSegment('projects', 3)).toContain(entry)
    expect(apiRouteSource.withFirstSegment('projects', 4)).not.toContain(entry)
    expect(apiRouteSource.withFirstSegment('PROJECTS', 3)).toEqual([])
    expect(apiRouteSource.withFirstSegment('projects', 3).every((route) => route.path.startsWith('/projects/') && route.path.split('/').length === 4)).toBe(true)
    expect(apiRouteSource.others().every((route) => route.path.includes('/*') || route.path.startsWith('/:'))).toBe(true)
    expect(webRouteSource.all().every((route) => (route as { web?: boolean }).web === true)).toBe(true)
  })

  it('gives each entry its whole route, the same object on every call once loaded', async () => {
    const entry = allRoutes().find((route) => route.key === 'GET /projects/:id/labels')!
    const first = await loadRoute(entry)
    expect(first.key).toBe(entry.key)
    expect(typeof first.handler).toBe('function')
    expect(loadRoute(entry)).toBe(first)
  })
})
