/**
 * The public entries name what they export (issue 24, item 7): `fakelab/msw` and `fakelab/node`
 * have no `export *`, so a new export in record/ or verify/ becomes public only by an edit here,
 * each re-exported name carries its TSDoc, and neither entry leaves out a name of the barrels
 * they present (src/record/index.ts, src/verify/index.ts; `fakelab/msw` takes the cassette
 * import alone, from src/verify/import.ts, and presents every name verify's barrel takes from it).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const SRC = join(import.meta.dirname, '..', '..', 'src')

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(join(SRC, file), 'utf8'), ts.ScriptTarget.Latest, true)
}

/** Every `export { … } from` / `export type { … } from` of a module: `[name, has TSDoc, from]`. */
function reExports(file: string): { name: string; documented: boolean; from: string }[] {
  const source = parse(file)
  return source.statements.flatMap((statement) => {
    if (!ts.isExportDeclaration(statement) || !statement.moduleSpecifier || !statement.exportClause || !ts.isNamedExports(statement.exportClause)) return []
    const from = (statement.moduleSpecifier as ts.StringLiteral).text
    return statement.exportClause.elements.map((element) => ({
      name: element.name.text,
      documented: (ts.getLeadingCommentRanges(source.text, element.pos) ?? []).some((range) => source.text.startsWith('/**', range.pos)),
      from,
    }))
  })
}

const starExports = (file: string): string[] =>
  parse(file).statements.filter((s) => ts.isExportDeclaration(s) && !s.exportClause).map((s) => s.getText())

describe('public entries', () => {
  it.each(['msw.ts', 'node.ts'])('src/%s lists its exports by name (no export *)', (file) => {
    expect(starExports(file)).toEqual([])
  })

  it.each(['msw.ts', 'node.ts'])('src/%s documents each name it re-exports', (file) => {
    expect(reExports(file).filter((e) => !e.documented).map((e) => e.name)).toEqual([])
  })

  it.each([
    ['msw.ts', 'record/index.ts', './record/index.js'],
    ['node.ts', 'record/index.ts', './record/index.js'],
    ['node.ts', 'verify/index.ts', './verify/index.js'],
  ])('src/%s presents every export of src/%s', (entry, barrel, specifier) => {
    const presented = reExports(entry).filter((e) => e.from === specifier).map((e) => e.name).sort()
    expect(presented).toEqual(reExports(barrel).map((e) => e.name).sort())
  })

  it('src/msw.ts presents every export of src/verify/index.ts that comes from import.ts', () => {
    const presented = reExports('msw.ts').filter((e) => e.from === './verify/import.js').map((e) => e.name).sort()
    expect(presented).toEqual(reExports('verify/index.ts').filter((e) => e.from === './import.js').map((e) => e.name).sort())
    expect(presented).toContain('importCassette')
  })
})
