/**
 * `fakelab verify` maps renamed ids in `Link` headers too (issue 40 item 2): GitLab's Link URLs
 * repeat the route's path params in their query (`…/milestones/223/issues?milestone_id=223&…`), so
 * a record the session created, which the replay imports under another id, must be renamed in the
 * query as in the path. And the import keeps a project's namespace name as the project answer shows
 * it. A session recorded against fakelab itself reads a project, creates a milestone and reads its
 * issues.
 */
import { describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { createRecorder, loadDefaultScenario, startServer, verifyCassette } from '../../src/node.js'

describe('verify: ids in Link headers', () => {
  it('renames a created record\'s id in the Link query as in its path', async () => {
    const upstream = await startServer(createSimulator({ scenario: await loadDefaultScenario() }), { port: 0 })
    const recorder = await createRecorder({ target: upstream.url })
    const headers = { 'private-token': 'glpat-max-fakelab', 'content-type': 'application/json' }
    try {
      expect((await fetch(`${recorder.url}/api/v4/projects/20`, { headers })).status).toBe(200)
      const created = await fetch(`${recorder.url}/api/v4/projects/20/milestones`, { method: 'POST', headers, body: JSON.stringify({ title: 'link-ids' }) })
      const milestone = (await created.json()) as { id: number }
      const issues = await fetch(`${recorder.url}/api/v4/projects/20/milestones/${milestone.id}/issues?per_page=5`, { headers })
      expect(issues.headers.get('link')).toContain(`milestone_id=${milestone.id}`)
    } finally {
      await recorder.close()
      await upstream.close()
    }
    const report = await verifyCassette(recorder.cassette())
    expect(report.renamedIds.some((r) => r.kind === 'milestones')).toBe(true)
    const [project, create, list] = report.results
    expect([create!.method, create!.recordedStatus, create!.simulatedStatus]).toEqual(['POST', 201, 201])
    expect([list!.method, list!.recordedStatus, list!.simulatedStatus, list!.differences]).toEqual(['GET', 200, 200, []])
    // The project's namespace keeps its recorded name (Acme), not a generated one; only what no
    // answer of the session shows (its open issues) differs.
    expect(project!.differences.map((d) => d.path)).toEqual(['$.open_issues_count'])
  })
})
