/**
 * python-gitlab, unmodified, arranging issues (issue 16 parts 1-3): `project.issues.create`,
 * `issue.save()` with `state_event`, notes create/save/delete, `awardemojis.create` on notes and
 * issues, subscribe/unsubscribe, `issue.delete()`, `sudo`, `issue.move()`.
 * Skipped, saying so, where `python3 -c 'import gitlab'` fails.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { findPython, runPython, serveDefaultScenario } from '../support/clients.js'

const python = findPython()

describe.skipIf(python === undefined)('python-gitlab arranging issues (skipped when python3-gitlab is not installed)', () => {
  const fakelab = serveDefaultScenario()

  it('creates, closes, comments, awards, subscribes, deletes and moves issues', async () => {
    const script = join(import.meta.dirname, 'python_gitlab_arrange_issues.py')
    const output = await runPython(python!, script, fakelab.url)
    expect(output.trim().split('\n')).toEqual([
      "created 5 ['py-one', 'py-two'] devon",
      'closed closed max',
      "reopened opened ['py-two']",
      'note from python-gitlab True',
      'note edited edited',
      'note award thumbsup Note',
      'issue upvotes 1',
      'again -> 404',
      'issue upvotes after removal 0',
      'unsubscribe again -> 304',
      'subscribed True',
      'notes left 0',
      'delete as maintainer -> 403',
      'sudo author olive 6',
      'after delete [6, 4, 3, 1]', // #5 is gone; max sees the confidential #4
      'moved 30 7',
    ])
  })
})
