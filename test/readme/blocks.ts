/**
 * The fenced code blocks of a Markdown page with the marker comment on the line before each fence
 * (README.md and docs/*.md; the conventions are in readme.test.ts's module comment).
 * @module
 */

/** One fenced block of a page. */
export interface Block {
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
  /** From `<!-- not run: reason -->`: the reason a shell block cannot run here. */
  notRun?: string
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
    const notRun = /^<!--\s*not run:\s*(.*?)\s*-->\s*$/.exec(lines[i - 1] ?? '')?.[1]
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
      ...(notRun !== undefined ? { notRun } : {}),
    })
    i = end
  }
  return out
}

