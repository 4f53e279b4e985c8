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
 * - ` ```sh ` / ` ```bash `: a bash script (`set -e`) run in the project root with
 *   `node_modules/.bin` on `PATH` (so `fakelab` is the installed bin). A line starting a
 *   long-running `fakelab serve` or `fakelab record` (`npx` optional) is started in the background
 *   (an `&` is added when missing), probed until its port accepts a connection, and stopped (SIGINT) when the
 *   block ends (each job is a process group: `set -m`). Refinement, so parallel runs on one
 *   machine do not collide: the ports 3000–3009 (`127.0.0.1:300N`, `localhost:300N`, `--port 300N`,
 *   and `FAKELAB_PORT`, which is set to the runner's stand-in for 3000) are replaced by free ports.
 *   Files the commands write stay for later blocks (a cassette recorded by one block is read by a
 *   ts block below it).
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
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { createServer } from 'node:net'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REPO, createScratchProject, type ScratchProject } from '../support/scratch-project.js'

/** One fenced block of a page. */
interface Block {
  /** The page, relative to the repository root (`README.md`, `docs/verify.md`). */
  page: string
  /** Line of the opening fence (1-based). */
  line: number
  lang: string
  text: string
  /** From `<!-- file: path -->`. */
  file?: string
  /** From `<!-- same-as: path -->`. */
  sameAs?: string
  /** From `<!-- checkout -->`. */
  checkout?: boolean
  /** From `<!-- install -->`. */
  install?: boolean
  /** From `<!-- output-of: command -->`. */
  outputOf?: string
}

/** The fenced blocks of a Markdown page, with the marker comment on the line before each fence. */
export function readmeBlocks(markdown: string, page = 'README.md'): Block[] {
  const lines = markdown.split('\n')
  const out: Block[] = []
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*$/.exec(lines[i]!)
    if (!open) continue
    const end = lines.findIndex((line, j) => j > i && line.startsWith('```'))
    if (end < 0) throw new Error(`${page}:${i + 1}: a code block is not closed`)
    const marker = /^<!--\s*(file|same-as):\s*(\S+)\s*-->\s*$/.exec(lines[i - 1] ?? '')
    const checkout = /^<!--\s*checkout\s*-->\s*$/.test(lines[i - 1] ?? '')
    const install = /^<!--\s*install\s*-->\s*$/.test(lines[i - 1] ?? '')
    const outputOf = /^<!--\s*output-of:\s*(.+?)\s*-->\s*$/.exec(lines[i - 1] ?? '')?.[1]
    out.push({
      page,
      line: i + 1,
      lang: open[1]!,
      text: `${lines.slice(i + 1, end).join('\n')}\n`,
      ...(marker?.[1] === 'file' ? { file: marker[2]! } : {}),
      ...(marker?.[1] === 'same-as' ? { sameAs: marker[2]! } : {}),
      ...(checkout ? { checkout } : {}),
      ...(install ? { install } : {}),
      ...(outputOf !== undefined ? { outputOf } : {}),
    })
    i = end
  }
  return out
}

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

/** The bash script a sh block becomes (see the module comment). */
async function shellScript(text: string): Promise<string> {
  const ports = new Map<number, number>()
  const portFor = async (n: number) => {
    if (!ports.has(n)) ports.set(n, await freePort())
    return ports.get(n)!
  }
  const base = await portFor(3000)
  let body = text
  for (const n of new Set([...text.matchAll(/(?:127\.0\.0\.1:|localhost:|--port )(300\d)\b/g)].map((m) => Number(m[1])))) {
    const port = await portFor(n)
    body = body.replace(new RegExp(`(127\\.0\\.0\\.1:|localhost:|--port )${n}\\b`, 'g'), `$1${port}`)
  }
  const lines: string[] = []
  for (const line of body.split('\n')) {
    if (!/^\s*(npx\s+)?fakelab\s+(serve|record)\b/.test(line)) {
      lines.push(line)
      continue
    }
    const comment = line.indexOf(' #')
    const command = (comment < 0 ? line : line.slice(0, comment)).trimEnd()
    const port = /--port\s+(\d+)/.exec(command)?.[1] ?? String(base)
    lines.push(command.endsWith('&') ? command : `${command} &`, `__fakelab_ready ${port}`)
  }
  return [
    // Job control: each background job is its own process group, so stopping it reaches npx's child too.
    'set -em',
    `export PATH="$PWD/node_modules/.bin:$PATH" FAKELAB_PORT=${base}`,
    // A TCP connect, not an HTTP request: a recorder would put the probe in its cassette.
    '__fakelab_ready() { for _ in $(seq 1 300); do (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0; sleep 0.05; done; echo "nothing answers on port $1" >&2; return 1; }',
    "trap 'for p in $(jobs -p); do kill -INT -- \"-$p\" 2>/dev/null || true; done; wait' EXIT",
    ...lines,
  ].join('\n')
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
  const kind = (block: Block) => block.sameAs ? `same-as ${block.sameAs}` : block.outputOf !== undefined ? 'output' : block.checkout ? 'checkout' : block.install ? 'install' : block.lang || 'plain'
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
        const { stdout } = await project.exec('bash', ['-c', `export PATH="$PWD/node_modules/.bin:$PATH"; ${block.outputOf} || true`], { timeout: 60_000 })
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
          await project.exec('bash', ['-c', await shellScript(block.text)], { timeout: 60_000 })
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
