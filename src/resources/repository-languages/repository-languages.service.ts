/**
 * A repository's languages as GitLab shows them (`Projects::RepositoryLanguagesService`, Gitaly's
 * linguist): the files of the default branch's tip, each given a language by its file name or
 * extension from GitHub Linguist's data (the `linguist-languages` package), counting only the
 * `programming` and `markup` languages (`DETECTABLE_TYPES`) and leaving out vendored and
 * documentation paths; each language's share of the bytes in percent, rounded to 2 decimals,
 * largest first. gitlab: app/services/projects/repository_languages_service.rb,
 * lib/gitlab/language_data.rb; gitaly: internal/gitaly/linguist (13.12).
 * spec-gap: Linguist's heuristics and `.gitattributes` overrides are not applied: an extension
 * several languages share goes to the one that lists it first among its extensions.
 * @module
 */
import * as linguist from 'linguist-languages'
import type { Db } from '../../db/db.js'
import type { ProjectRecord } from '../../db/schema.js'
import { commitOf, flatFiles, repositoryOf } from '../repository/repository.public.js'

interface LanguageData {
  readonly name: string
  readonly type: string
  readonly extensions?: readonly string[]
  readonly filenames?: readonly string[]
}

/** Extension (`.rb`, lower case) and file name → language name, detectable languages only; built once. */
let index: { extensions: Map<string, string>; filenames: Map<string, string> } | undefined

function languageIndex() {
  if (index) return index
  const extensions = new Map<string, { name: string; rank: number }>()
  const filenames = new Map<string, string>()
  for (const language of Object.values(linguist) as LanguageData[]) {
    if (language.type !== 'programming' && language.type !== 'markup') continue
    ;(language.extensions ?? []).forEach((ext, rank) => {
      const key = ext.toLowerCase()
      const seen = extensions.get(key)
      if (!seen || rank < seen.rank || (rank === seen.rank && language.name < seen.name)) extensions.set(key, { name: language.name, rank })
    })
    for (const name of language.filenames ?? []) if (!filenames.has(name)) filenames.set(name, language.name)
  }
  index = { extensions: new Map([...extensions].map(([k, v]) => [k, v.name])), filenames }
  return index
}

/** Linguist's vendored and documentation paths (a subset of vendor.yml and documentation.yml). */
const EXCLUDED = [
  /(^|\/)(node_modules|vendor|bower_components|third[-_]?party|Godeps|\.yarn)\//i,
  /(^|\/)(docs?|Documentation|examples?)\//i,
  /(^|\/)(README|CHANGELOG|CHANGES|CONTRIBUTING|COPYING|INSTALL|LICEN[CS]E|NEWS|AUTHORS)(\.[^/]*)?$/i,
  /\.min\.(js|css)$/i,
]

/** The language of a path, or undefined when Linguist would not count it. */
function languageOf(path: string): string | undefined {
  if (EXCLUDED.some((re) => re.test(path))) return undefined
  const { extensions, filenames } = languageIndex()
  const base = path.slice(path.lastIndexOf('/') + 1)
  const byName = filenames.get(base)
  if (byName) return byName
  for (let dot = base.indexOf('.'); dot !== -1; dot = base.indexOf('.', dot + 1)) {
    const language = extensions.get(base.slice(dot).toLowerCase())
    if (language) return language
  }
  return undefined
}

/** `{language: share}` of the project's default branch, largest share first; `{}` for an empty repository. */
export function repositoryLanguages(db: Db, project: ProjectRecord): Record<string, number> {
  const repo = repositoryOf(db, project)
  const tip = repo.branches.get(project.default_branch)
  if (tip === undefined) return {}
  const bytes = new Map<string, number>()
  let total = 0
  for (const [path, entry] of flatFiles(repo, commitOf(repo, tip).tree)) {
    if (entry.mode === '160000' || entry.mode === '120000') continue
    const language = languageOf(path)
    if (!language) continue
    const size = repo.objects.blob(entry.id)?.data.length ?? 0
    bytes.set(language, (bytes.get(language) ?? 0) + size)
    total += size
  }
  if (total === 0) return {}
  const out: Record<string, number> = {}
  for (const [language, size] of [...bytes].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))) out[language] = Math.round((size / total) * 10000) / 100
  return out
}
