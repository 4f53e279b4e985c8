/**
 * The conventions of the docs' shell blocks (issue 38 item 7; `shell-blocks.ts`), fast and without
 * the consumer project: every shell block of README.md and docs/*.md keeps them, and each rule
 * catches what it is for. The README test runs the blocks themselves.
 */
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO } from '../support/scratch-project.js'
import { readmeBlocks } from './blocks.js'
import { outputMatches, planShellBlock, shellScript } from './shell-blocks.js'

const PAGES = ['README.md', ...readdirSync(join(REPO, 'docs')).filter((name) => name.endsWith('.md')).sort().map((name) => `docs/${name}`)]
const shell = PAGES.flatMap((page) => readmeBlocks(readFileSync(join(REPO, page), 'utf8'), page))
  .filter((b) => (b.lang === 'sh' || b.lang === 'bash') && !b.checkout && !b.install && !b.sameAs && b.notRun === undefined)

describe('the shell blocks of README.md and docs/*.md', () => {
  it('are there', () => expect(shell.length).toBeGreaterThan(8))
  it.each(shell.map((b) => [`${b.page}:${b.line}`, b] as const))('%s keeps the conventions', (_where, block) => {
    expect(planShellBlock(block.text).problems).toEqual([])
  })
})

describe('planShellBlock', () => {
  it.each([
    ['a bare fakelab', 'fakelab validate x.yaml\n', 'line 1: a bare `fakelab`: in a consumer project the command is `npx fakelab`'],
    ['a server in the foreground', 'npx fakelab serve\ncurl -s http://127.0.0.1:3000/api/v4/version\n', 'line 1: a server started in the foreground never returns: end the line with `&` and stop it with `kill %1`'],
    ['no readiness wait', 'npx fakelab serve &\ncurl -s http://127.0.0.1:3000/api/v4/version\nkill %1\n', 'line 2: the server started on line 1 may not listen yet: wait for it first with `curl -sf --retry 30 --retry-connrefused --retry-delay 1 -o /dev/null http://127.0.0.1:<port>/-/readiness`'],
    ['an output in a comment', 'curl -s http://127.0.0.1:3000/api/v4/version   # {"version":"13.12.15"}\n', 'line 1: the comment "# {"version":"13.12.15"}" reads as output: write it on an `# output:` line below the command, so that it is compared'],
    ['a status in a comment', "curl -s -o /dev/null -w '%{http_code}' http://x   # 204\n", 'line 1: the comment "# 204" reads as output: write it on an `# output:` line below the command, so that it is compared'],
    ['a stray output line', '# output: 1\n', 'line 1: an `# output:` line belongs right below a command'],
  ])('refuses %s', (_what, text, problem) => {
    expect(planShellBlock(text).problems).toEqual([problem])
  })

  it('reads commands with continuation lines, outputs and exit statuses', () => {
    const plan = planShellBlock("npx fakelab serve --port 3000 &   # the server\ncurl -sf --retry 30 --retry-connrefused --retry-delay 1 -o /dev/null http://127.0.0.1:3000/-/readiness\ncurl -s \\\n  http://127.0.0.1:3000/-/health\n# output: GitLab OK\nnpx fakelab verify a.har\n# exit: 1\nkill %1\n")
    expect(plan.problems).toEqual([])
    expect(plan.commands.map((c) => [c.line, c.output, c.exit])).toEqual([[1, undefined, undefined], [2, undefined, undefined], [3, ['GitLab OK'], undefined], [6, undefined, 1], [8, undefined, undefined]])
    expect(shellScript(plan.commands, '/tmp/x')).toContain('{ curl -s \\\n  http://127.0.0.1:3000/-/health\n} > "$__out/2"\necho 0 > "$__out/2".exit\ncat "$__out/2"\n')
  })

  it('compares outputs line by line, … standing for any text', () => {
    expect(outputMatches(['[{"seq":4,…,"fault":"status 503"}]'], '[{"seq":4,"requestId":"x","fault":"status 503"}]')).toBe(true)
    expect(outputMatches(['[{"seq":1,…}]'], '[{"seq":4,"requestId":"x"}]')).toBe(false)
    expect(outputMatches(['204'], '204\n')).toBe(true)
    expect(outputMatches(['204'], '204\n200\n')).toBe(false)
  })
})
