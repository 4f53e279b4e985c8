/**
 * Every fenced code block of README.md and of the reference pages `docs/*.md` runs (issue 12:
 * "Every README code block must run, and a test must execute each one"; issue 24 item 8 moved the
 * reference into docs/), against the packed package installed in a scratch project
 * (`test/support/scratch-project.ts`), block by block: README.md first, then the pages in name
 * order, each in its own order. Block files are named after their page and line
 * (`readme/docs-scenarios-12.yaml`). The convention, by fence language:
 *
 * - ` ```ts ` / ` ```js `: a complete vitest test file, written to `readme/<page>-<line>.test.ts` and
 *   run with the project's vitest. It may import only `fakelab`, `fakelab/msw`, `fakelab/node`,
 *   `vitest`, `msw`, `msw/node` and `node:*` modules. Every ts block is also type-checked
 *   (`tsc --noEmit`, strict, NodeNext) against the package's shipped types. Refinement, for speed:
 *   the ts/js blocks run after every other block, all in one vitest run (its JSON report gives
 *   each block's result), so they see the files every sh block wrote.
 * - ` ```yaml `: a complete scenario file, written to `readme/<page>-<line>.yaml` (or to the path of
 *   a `<!-- file: some/path.yaml -->` comment on the line before the fence, relative to the project
 *   root), checked with the installed `fakelab validate` on its own (as a user checks a file, so a
 *   fixture meant to be included must pass alone too: issue 28 item 9), then loaded with
 *   `loadScenarioFile` and `createSimulator`. Every `file:` block is written before any block runs,
 *   so an `include:` between blocks (and pages) resolves.
 * - ` ```sh ` / ` ```bash `: run as written, each in its own session, bounded in time, by bash in
 *   the project root without `node_modules/.bin` on the `PATH` (a reader types `npx fakelab`),
 *   following the conventions of `shell-blocks.ts` (issue 38 item 7): servers in the background
 *   with a readiness wait written into the block and stopped by it (what is left running fails the
 *   block, and is killed), every `# output:` line compared with what its command prints, every
 *   `# exit:` with its status. The one rewrite: ports 3000–3009 become free ports, so that parallel
 *   runs do not collide. Files the commands write stay for later blocks (a cassette recorded by
 *   one block is read by a ts block below it).
 * - `<!-- not run: <reason> -->` on the line before an `sh` fence: a block that cannot run here
 *   (it needs a real GitLab, say), with its reason; the only way out besides `checkout` and
 *   `install` below.
 * - ` ```text ` / ` ```json ` and other languages: output and listings, not run, except:
 * - `<!-- output-of: <command> -->` on the line before a fence: the block is that command's sample
 *   output, and must equal exactly the stdout of running it (bash, in the project root, after every
 *   sh block above it has run; its exit status is not checked, as `fakelab verify` exits 1 when
 *   answers differ).
 * - `<!-- same-as: <path in repo> -->` on the line before the fence: the block must equal that
 *   file's content exactly (code another test runs, such as browser code); it is not run here.
 * - `<!-- checkout -->` on the line before an `sh` fence: commands for a checkout of this
 *   repository (the README's first lines), which cannot run inside the test run (they reinstall and
 *   rebuild the tree the tests use). Each line must be `npm ci && npm <script>` with a script of
 *   package.json; `.ci/run` must run `npm ci` and `npm test` itself (so CI executes the test line),
 *   and `npm start` must be `bin/fakelab serve`, which test/cli runs.
 * - `<!-- install -->` on the line before an `sh` fence: how a user installs fakelab from a clone
 *   (it cannot run here: it clones and installs into another project; the scratch project is that
 *   install, made the same way). Every `npm run <script>` must exist, and every tarball it names must
 *   be the one `npm pack` writes for this version.
 *
 * Besides the blocks: no page offers `npm install fakelab` from the registry (the package is not
 * published: issue 28 item 1), every relative link between the pages reaches a file, and a
 * heading when it has an anchor, and the field list of docs/scenarios.md is the shipped JSON
 * Schema's (`dist/scenario.schema.json`, built before the scratch project is packed).
 * @module
 */
import { spawn, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REPO, createScratchProject, type ScratchProject } from '../support/scratch-project.js'
import { readmeBlocks, type Block } from './blocks.js'
import { blockPorts, outputMatches, planShellBlock, shellScript, withPorts } from './shell-blocks.js'

/** README.md, then the reference pages in name order. */
const PAGES = ['README.md', ...readdirSync(join(REPO, 'docs')).filter((name) => name.endsWith('.md')).sort().map((name) => `docs/${name}`)]
const texts = new Map(PAGES.map((page) => [page, readFileSync(join(REPO, page), 'utf8')]))
const blocks = PAGES.flatMap((page) => readmeBlocks(texts.get(page)!, page))
const ALLOWED_IMPORTS = /^(fakelab|fakelab\/msw|fakelab\/node|vitest|msw|msw\/node|node:[a-z/_]+)$/

/** `README`, `docs-verify`: a page's part of its blocks' file names. */
const slug = (page: string) => page.replace(/\.md$/, '').replaceAll('/', '-')
const codeFile = (block: Block) => `readme/${slug(block.page)}-${block.line}.test.${block.lang === 'js' ? 'js' : 'ts'}`
const yamlFile = (block: Block) => block.file ?? `readme/${slug(block.page)}-${block.line}.yaml`
const where = (block: Block) => `${block.page}:${block.line}`

/** A free TCP port on 127.0.0.1 (closed again at once). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

/** Processes of the session `sid` (the block's bash is its leader), as `pid args`. */
function sessionProcesses(sid: number): { pid: number; args: string }[] {
  const ps = spawnSync('ps', ['-eo', 'pid=,sid=,args='], { encoding: 'utf8' }).stdout
  return ps.split('\n').map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line)).filter((m): m is RegExpExecArray => m !== null && Number(m[2]) === sid).map((m) => ({ pid: Number(m[1]), args: m[3]! }))
}

/** How long a block may run, and how long what it stopped may take to exit. */
const BLOCK_TIMEOUT_MS = 60_000
const STOP_GRACE_MS = 5_000

/**
 * Runs a shell block as `shell-blocks.ts` describes: in its own session (so that what it leaves
 * running can be found), bounded in time, in the project root, with no `node_modules/.bin` on the
 * `PATH`. Fails with every convention it breaks, its failing command, each `# output:` or `# exit:`
 * that differs, and anything it left running (which is then killed).
 */
async function runShellBlock(block: Block): Promise<void> {
  const plan = planShellBlock(block.text)
  expect(plan.problems.map((p) => `${block.page}:${block.line + Number(/^line (\d+)/.exec(p)![1])}: ${p.replace(/^line \d+: /, '')}`), 'the conventions of test/readme/shell-blocks.ts').toEqual([])
  // 3000 always: a bare `npx fakelab serve` listens there, through FAKELAB_PORT.
  const ports = new Map<number, number>([[3000, await freePort()]])
  for (const port of blockPorts(block.text)) if (!ports.has(port)) ports.set(port, await freePort())
  const commands = plan.commands.map((c) => ({ ...c, text: withPorts(c.text, ports) }))
  const outDir = mkdtempSync(join(tmpdir(), 'fakelab-readme-sh-'))
  const path = (process.env.PATH ?? '').split(':').filter((dir) => !dir.includes('node_modules/.bin')).join(':')
  try {
    const child = spawn('bash', ['-c', shellScript(commands, outDir)], { cwd: project.dir, detached: true, env: { ...process.env, PATH: path, NO_COLOR: '1', FAKELAB_PORT: String(ports.get(3000)) }, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), BLOCK_TIMEOUT_MS)
    // `exit`, not `close`: a server the block left running holds its stdout open.
    const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null]
    clearTimeout(timer)
    let left = sessionProcesses(child.pid!)
    for (let waited = 0; left.length > 0 && waited < STOP_GRACE_MS; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      left = sessionProcesses(child.pid!)
    }
    for (const { pid } of left) {
      try {
        process.kill(pid, 'SIGKILL')
      } catch {
        // gone meanwhile
      }
    }
    const report = `${where(block)}: exit ${code ?? signal}\n--- stdout\n${stdout}\n--- stderr\n${stderr}`
    expect(signal, `${report}\n(timed out after ${BLOCK_TIMEOUT_MS} ms)`).toBeNull()
    expect(code, report).toBe(0)
    const differences: string[] = []
    commands.forEach((command, n) => {
      if (command.output === undefined && command.exit === undefined) return
      const at = `${block.page}:${block.line + command.line}`
      const actual = readFileSync(join(outDir, String(n)), 'utf8')
      const status = Number(readFileSync(join(outDir, `${n}.exit`), 'utf8'))
      if (command.output !== undefined && !outputMatches(command.output, actual)) differences.push(`${at}: printed\n${actual}\ninstead of\n${command.output.join('\n')}`)
      if ((command.exit ?? 0) !== status) differences.push(`${at}: exit ${status} instead of ${command.exit ?? 0}`)
    })
    expect(differences, report).toEqual([])
    expect(left.map((p) => p.args), `${where(block)} leaves these running (stop what it starts, e.g. kill %1)`).toEqual([])
  } finally {
    rmSync(outDir, { recursive: true, force: true })
  }
}

let project: ScratchProject

beforeAll(async () => {
  project = await createScratchProject()
  project.write('tsconfig.json', JSON.stringify({
    compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: true, types: ['node'], lib: ['ES2023', 'DOM'] },
    include: ['readme/*.ts'],
  }))
  project.write('readme/check-scenarios.mjs', [
    "import { createSimulator } from 'fakelab'",
    "import { loadScenarioFile } from 'fakelab/node'",
    'for (const file of process.argv.slice(2)) createSimulator({ scenario: await loadScenarioFile(file) })',
  ].join('\n'))
  for (const block of blocks) {
    if (block.sameAs || block.checkout || block.install) continue
    if (block.lang === 'yaml') project.write(yamlFile(block), block.text)
    if (block.lang === 'ts' || block.lang === 'js') project.write(codeFile(block), block.text)
  }
}, 180_000)
afterAll(() => project?.dispose())

describe('README.md and docs/*.md code blocks', () => {
  it('has blocks to run', () => {
    expect(blocks.filter((b) => ['ts', 'js', 'yaml', 'sh', 'bash'].includes(b.lang)).length).toBeGreaterThan(5)
  })

  const isCode = (block: Block) => !block.sameAs && !block.checkout && !block.install && (block.lang === 'ts' || block.lang === 'js')
  const kind = (block: Block) => block.sameAs ? `same-as ${block.sameAs}` : block.outputOf !== undefined ? 'output' : block.checkout ? 'checkout' : block.install ? 'install' : block.notRun !== undefined ? `not run: ${block.notRun}` : block.lang || 'plain'
  it.each(blocks.filter((b) => !isCode(b)).map((block) => [where(block), kind(block), block] as const))(
    '%s (%s)',
    async (_where, _kind, block) => {
      if (block.sameAs) {
        expect(block.text).toBe(readFileSync(join(REPO, block.sameAs), 'utf8'))
        return
      }
      if (block.checkout) {
        checkCheckoutBlock(block)
        return
      }
      if (block.install) {
        checkInstallBlock(block)
        return
      }
      if (block.outputOf !== undefined) {
        const { stdout } = await project.exec('bash', ['-c', `${block.outputOf} || true`], { timeout: 60_000 })
        expect(stdout, `${where(block)}: the output of ${block.outputOf}`).toBe(block.text)
        return
      }
      switch (block.lang) {
        case 'yaml': {
          await project.exec('node_modules/.bin/fakelab', ['validate', yamlFile(block)])
          await project.exec('node', ['readme/check-scenarios.mjs', yamlFile(block)])
          return
        }
        case 'sh':
        case 'bash': {
          if (block.notRun !== undefined) {
            expect(block.notRun, `${where(block)}: <!-- not run: … --> needs its reason`).not.toBe('')
            return
          }
          await runShellBlock(block)
          return
        }
        default:
          return // output and listings
      }
    },
    90_000,
  )

  describe('ts and js blocks (one vitest run, after the others)', () => {
    const code = blocks.filter(isCode)
    let report: Map<string, { status: string; message: string }>
    beforeAll(async () => {
      let output: string
      try {
        output = (await project.exec('npx', ['vitest', 'run', 'readme/', '--reporter=json'], { timeout: 240_000, env: { CI: '1', NO_COLOR: '1' } })).stdout
      } catch (error) {
        output = (error as Error).message // failing tests: vitest exits 1, the report is still on stdout
      }
      const json = JSON.parse(output.slice(output.indexOf('{'), output.lastIndexOf('}') + 1)) as {
        testResults: { name: string; status: string; message: string; assertionResults: { fullName: string; status: string; failureMessages: string[] }[] }[]
      }
      report = new Map(json.testResults.map((file) => [
        file.name.slice(file.name.indexOf('readme/')),
        {
          status: file.status,
          message: [file.message, ...file.assertionResults.filter((a) => a.status !== 'passed').map((a) => `${a.fullName}: ${a.failureMessages.join('\n')}`)].join('\n'),
        },
      ]))
    }, 300_000)

    it.each(code.map((block) => [where(block), block.lang, block] as const))('%s (%s)', (_where, _lang, block) => {
      for (const [, from] of block.text.matchAll(/^\s*import\s[^'"]*['"]([^'"]+)['"]/gm)) {
        expect(from, `${where(block)} imports ${from}`).toMatch(ALLOWED_IMPORTS)
      }
      const result = report.get(codeFile(block))
      expect(result, `no vitest result for ${codeFile(block)}`).toBeDefined()
      expect(result!.status, result!.message).toBe('passed')
    })
  })

  it('type-checks every ts block against the shipped types', async () => {
    if (!blocks.some((b) => b.lang === 'ts' && !b.sameAs)) return
    await project.exec('npx', ['tsc', '-p', '.'])
  }, 180_000)
})

describe('README.md and docs/*.md text', () => {
  it('docs/scenarios.md lists every field of the shipped scenario JSON Schema', () => {
    type Node = { properties: Record<string, Node>; items: Node }
    const schema = JSON.parse(readFileSync(join(REPO, 'dist', 'scenario.schema.json'), 'utf8')) as Node
    const sorted = (keys: string[]) => [...keys].sort().map((k) => `\`${k}\``).join(', ')
    const expected = [
      `- **top level:** ${sorted(Object.keys(schema.properties))}`,
      ...['users', 'groups', 'projects'].map((kind) => `- **${kind}[]:** ${sorted(Object.keys(schema.properties[kind]!.items.properties))}`),
    ]
    const page = texts.get('docs/scenarios.md')!
    const shown = page.slice(page.indexOf('<!-- scenario-fields:start -->'), page.indexOf('<!-- scenario-fields:end -->')).split('\n').filter((line) => line.startsWith('- '))
    expect(shown, 'update the field list of docs/scenarios.md').toEqual(expected)
  })

  it.each(PAGES)('%s offers no install from the npm registry (fakelab is not published)', (page) => {
    const offers = texts.get(page)!.split('\n').filter((line) => /\bnpm (?:install|i|add)\b[^\n]*(?:\s|`)fakelab(?:@[\w.^~-]+)?(?=[\s`]|$)/.test(line))
    expect(offers).toEqual([])
  })

  it.each(PAGES)('%s links only to files and headings that exist', (page) => {
    const broken: string[] = []
    for (const [, target] of texts.get(page)!.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target!)) continue
      const [file, anchor] = target!.split('#') as [string, string | undefined]
      const path = file === '' ? page : join(dirname(page), file)
      if (!existsSync(join(REPO, path))) {
        broken.push(`${target}: no file ${path}`)
        continue
      }
      if (anchor !== undefined && path.endsWith('.md') && !headingSlugs(readFileSync(join(REPO, path), 'utf8')).has(anchor)) broken.push(`${target}: no heading #${anchor} in ${path}`)
    }
    expect(broken).toEqual([])
  })
})

/** GitHub's anchors of a page's headings (lower case, punctuation dropped, spaces to hyphens). */
function headingSlugs(markdown: string): Set<string> {
  const slugs = new Set<string>()
  let fenced = false
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced
    const heading = fenced ? null : /^#{1,6}\s+(.+?)\s*$/.exec(line)
    if (!heading) continue
    const base = heading[1]!.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-')
    let slug = base
    for (let n = 1; slugs.has(slug); n++) slug = `${base}-${n}`
    slugs.add(slug)
  }
  return slugs
}

/** The checks of an `<!-- install -->` block (see the module comment). */
function checkInstallBlock(block: Block): void {
  const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { name: string; version: string; scripts: Record<string, string> }
  for (const [, script] of block.text.matchAll(/\bnpm run ([\w:-]+)/g)) expect(pkg.scripts[script!], `${where(block)}: npm run ${script}`).toBeDefined()
  const tarballs = [...block.text.matchAll(/[\w.-]+\.tgz\b/g)].map((m) => m[0].replace(/^.*\//, ''))
  expect(tarballs.length, `${where(block)} names the tarball npm pack writes`).toBeGreaterThan(0)
  for (const tarball of tarballs) expect(tarball, where(block)).toBe(`${pkg.name}-${pkg.version}.tgz`)
}

/** The checks of a `<!-- checkout -->` block (see the module comment). */
function checkCheckoutBlock(block: Block): void {
  const scripts = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts
  const lines = block.text.split('\n').map((line) => line.replace(/#.*$/, '').trim()).filter(Boolean)
  expect(lines.length).toBeGreaterThan(0)
  for (const line of lines) {
    const script = /^npm ci && npm (?:run )?([\w:-]+)$/.exec(line)?.[1]
    expect(script, line).toBeDefined()
    expect(scripts[script!], line).toBeDefined()
  }
  expect(scripts.start).toBe('node bin/fakelab serve')
  const ci = readFileSync(join(REPO, '.ci/run'), 'utf8').split('\n').map((line) => line.trim())
  expect(ci).toContain('npm ci')
  expect(ci).toContain('npm test')
}
