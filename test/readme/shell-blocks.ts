/**
 * How the README test runs a shell block of README.md or docs/*.md (issue 38 item 7): as written,
 * by bash in the consumer project, and compares what each command prints with its `# output:`
 * lines. The conventions a block follows (checked here, before it runs):
 *
 * - commands are what a reader in a consumer project types: `npx fakelab`, never a bare `fakelab`
 *   (its bin is not on the `PATH` there, nor here);
 * - a server (`npx fakelab serve`, `npx fakelab record`, or `node_modules/.bin/fakelab …` where a
 *   signal must reach fakelab alone and `wait` get its exit status) starts in the background (`&`), and the
 *   next command waits until it is ready with `curl … --retry-connrefused … /-/readiness`; the block
 *   stops what it started (`kill %1`): anything still running a few seconds after the block ends
 *   fails it, and is killed;
 * - `# output: <line>` lines right below a command are what it prints on stdout, one line each
 *   (`…` stands for any text); `# exit: <n>` says it exits with `n` (without it, any failing
 *   command fails the block: bash runs with `set -e`, and with job control on, as a terminal's
 *   shell, so `kill %1` reaches a job's whole process group);
 * - a trailing comment that reads as output (a JSON value, a quoted string, an HTTP status) must be
 *   an `# output:` line instead, so no output in the docs goes unchecked.
 *
 * The one rewrite: ports 3000–3009 (`127.0.0.1:300N`, `localhost:300N`, `--port 300N`) become free
 * ports, so that parallel runs on one machine do not collide; `FAKELAB_PORT` is set to the one for
 * 3000, where a `npx fakelab serve` without `--port` listens.
 * @module
 */

/** One command of a block: its line (1-based, within the block), its text, and what it must print. */
export interface ShellCommand {
  readonly line: number
  /** The command as written, continuation lines included. */
  readonly text: string
  /** The `# output:` lines below it, when it has any. */
  readonly output?: readonly string[]
  /** The `# exit:` status below it, when given. */
  readonly exit?: number
}

/** A block read for running: its commands and what breaks the conventions. */
export interface ShellPlan {
  readonly commands: readonly ShellCommand[]
  /** `line N: why`, for each broken convention. */
  readonly problems: readonly string[]
}

const SERVER = /^\s*(?:npx\s+|node_modules\/\.bin\/)?fakelab\s+(?:serve|record)\b/
const READINESS = /^\s*curl\b.*--retry-connrefused.*\/-\/readiness\b/
/** A trailing comment that reads as output: a JSON value, a quoted string, or an HTTP status. */
const LOOKS_LIKE_OUTPUT = /^(?:[[{"]|\d{3}\b)/

/** The text before a trailing ` # comment` of a command line, and the comment (quotes respected). */
function splitComment(line: string): { code: string; comment: string | undefined } {
  let quote: string | undefined
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!
    if (quote) {
      if (c === quote) quote = undefined
      else if (c === '\\' && quote === '"') i++
    } else if (c === "'" || c === '"') quote = c
    else if (c === '\\') i++
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]!))) return { code: line.slice(0, i).trimEnd(), comment: line.slice(i + 1).trim() }
  }
  return { code: line, comment: undefined }
}

/** Reads a block's commands and checks the conventions (see the module comment). */
export function planShellBlock(text: string): ShellPlan {
  const lines = text.replace(/\n$/, '').split('\n')
  const commands: ShellCommand[] = []
  const problems: string[] = []
  let waitingFor: number | undefined
  for (let i = 0; i < lines.length; i++) {
    const first = lines[i]!
    if (/^\s*(#|$)/.test(first)) {
      if (/^\s*# (output|exit):/.test(first)) problems.push(`line ${i + 1}: an \`# ${/# (\w+)/.exec(first)![1]}:\` line belongs right below a command`)
      continue
    }
    const start = i
    const parts = [first]
    while (parts.at(-1)!.endsWith('\\') && i + 1 < lines.length) parts.push(lines[++i]!)
    const command = parts.join('\n')
    const output: string[] = []
    let exit: number | undefined
    while (i + 1 < lines.length && /^\s*# (output|exit):/.test(lines[i + 1]!)) {
      const annotation = /^\s*# (output|exit): ?(.*)$/.exec(lines[++i]!)!
      if (annotation[1] === 'output') output.push(annotation[2]!)
      else exit = Number(annotation[2])
    }
    commands.push({ line: start + 1, text: command, ...(output.length > 0 ? { output } : {}), ...(exit !== undefined ? { exit } : {}) })

    const where = `line ${start + 1}`
    const code = parts.map((part) => splitComment(part).code).join('\n')
    for (const part of parts) {
      const { comment } = splitComment(part)
      if (comment !== undefined && LOOKS_LIKE_OUTPUT.test(comment)) problems.push(`${where}: the comment "# ${comment}" reads as output: write it on an \`# output:\` line below the command, so that it is compared`)
    }
    if (/(?:^|[;&|(]\s*|\bthen\s+|\bdo\s+)fakelab\s/.test(code)) problems.push(`${where}: a bare \`fakelab\`: in a consumer project the command is \`npx fakelab\``)
    if (waitingFor !== undefined && !READINESS.test(code)) {
      problems.push(`${where}: the server started on line ${waitingFor} may not listen yet: wait for it first with \`curl -sf --retry 30 --retry-connrefused --retry-delay 1 -o /dev/null http://127.0.0.1:<port>/-/readiness\``)
    }
    waitingFor = undefined
    if (SERVER.test(code)) {
      if (!/&\s*$/.test(code)) problems.push(`${where}: a server started in the foreground never returns: end the line with \`&\` and stop it with \`kill %1\``)
      else waitingFor = start + 1
    }
  }
  if (waitingFor !== undefined) problems.push(`line ${waitingFor}: a server started last, and nothing uses it`)
  return { commands, problems }
}

/** The ports a block names (3000–3009), each with the free port that replaces it. */
export function blockPorts(text: string): number[] {
  return [...new Set([...text.matchAll(/(?:127\.0\.0\.1:|localhost:|--port )(300\d)\b/g)].map((m) => Number(m[1])))]
}

/** `text` with each port of `ports` replaced (see {@link blockPorts}). */
export function withPorts(text: string, ports: ReadonlyMap<number, number>): string {
  let out = text
  for (const [from, to] of ports) out = out.replace(new RegExp(`(127\\.0\\.0\\.1:|localhost:|--port )${from}\\b`, 'g'), `$1${to}`)
  return out
}

/**
 * The bash script of a block: its commands as written, in order, each one that has `# output:` or
 * `# exit:` lines with its stdout kept in `<outDir>/<n>` (and still printed) and its status in
 * `<outDir>/<n>.exit`.
 */
export function shellScript(commands: readonly ShellCommand[], outDir: string): string {
  const lines = ['set -em', `__out=${JSON.stringify(outDir)}`]
  commands.forEach((command, n) => {
    if (command.output === undefined && command.exit === undefined) {
      lines.push(command.text)
      return
    }
    const file = `"$__out/${n}"`
    if (command.exit === undefined) lines.push(`{ ${command.text}\n} > ${file}`, `echo 0 > ${file}.exit`)
    else lines.push(`if { ${command.text}\n} > ${file}; then echo 0 > ${file}.exit; else echo $? > ${file}.exit; fi`)
    lines.push(`cat ${file}`)
  })
  return `${lines.join('\n')}\n`
}

/**
 * Whether `actual` (a command's stdout) is what its `# output:` lines say: as many lines (a last
 * newline aside), each equal, `…` standing for any text.
 */
export function outputMatches(expected: readonly string[], actual: string): boolean {
  const got = actual.replace(/\n$/, '').split('\n')
  if (got.length !== expected.length) return false
  return expected.every((want, i) => new RegExp(`^${want.split('…').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`).test(got[i]!))
}
