// The repository benchmark's scenario (bench/repository.mjs): one public project whose
// `repository:` holds `commits` commits touching `files` files, generated from the indexes alone (no
// randomness), as a scenario object (not YAML text, so loading skips the YAML parser).

export const TOKEN = 'glpat-root-fakelab'
/** The project's id. */
export const PROJECT = 20
/** Commits on the branch `feature` (the last ones of the scenario). */
export const FEATURE_COMMITS = 50
/** Main's commits after the feature branch starts (so the merge base is not main's tip). */
export const MAIN_AFTER_FORK = 50
/** Lines per file. */
const LINES = 30

/** The files the feature branch changes (the compare's size): 100, or every file when fewer. */
export function compareFiles(files) {
  return Math.min(100, files)
}

/**
 * The scenario: users, one public project (id {@link PROJECT}), its repository. Files sit three levels deep
 * (`pkg-P/mod-M/file-F.ts`, ten per directory). The first `files` / 10 commits add ten files each;
 * every later main commit rewrites one line of one file (a stride through the files, so each is
 * changed many times); the feature branch starts MAIN_AFTER_FORK commits before main's tip and its
 * FEATURE_COMMITS commits change `compareFiles(files)` files between them.
 */
export function repositoryScenario(commits = 10_000, files = 1000) {
  const path = (f) => `pkg-${Math.floor(f / 100)}/mod-${Math.floor(f / 10) % 10}/file-${f % 10}.ts`
  const text = new Array(files)
  const lines = (f) => (text[f] ??= Array.from({ length: LINES }, (_, l) => `export const v${l} = ${f * LINES + l} // file ${f}, line ${l}`))
  const authors = ['dev1', 'dev2', 'dev3', 'dev4', 'dev5']
  const out = []
  const adds = Math.ceil(files / 10)
  const mainCommits = commits - FEATURE_COMMITS
  const fork = mainCommits - MAIN_AFTER_FORK - 1
  for (let i = 0; i < mainCommits; i++) {
    const changed = {}
    if (i < adds) {
      for (let f = i * 10; f < Math.min(files, i * 10 + 10); f++) changed[path(f)] = `${lines(f).join('\n')}\n`
    } else {
      const f = (i * 7919) % files
      const l = lines(f)
      l[i % LINES] = `export const v${i % LINES} = ${i} // changed by commit ${i}`
      changed[path(f)] = `${l.join('\n')}\n`
    }
    out.push({ ...(i === fork ? { key: 'fork' } : {}), author: authors[i % authors.length], message: i < adds ? `Add files ${i * 10} to ${i * 10 + 9}\n` : `Change file ${(i * 7919) % files}\n\nCommit ${i} of the benchmark.\n`, files: changed })
  }
  // The feature branch's files as they stood at the fork: replay main's changes up to it.
  const atFork = new Array(files)
  {
    const t = new Array(files)
    const ls = (f) => (t[f] ??= Array.from({ length: LINES }, (_, l) => `export const v${l} = ${f * LINES + l} // file ${f}, line ${l}`))
    for (let i = adds; i <= fork; i++) ls((i * 7919) % files)[i % LINES] = `export const v${i % LINES} = ${i} // changed by commit ${i}`
    for (let f = 0; f < files; f++) atFork[f] = ls(f)
  }
  const COMPARE_FILES = compareFiles(files)
  const perCommit = Math.ceil(COMPARE_FILES / FEATURE_COMMITS)
  for (let k = 0; k < FEATURE_COMMITS; k++) {
    const changed = {}
    for (let j = 0; j < perCommit; j++) {
      const n = k * perCommit + j
      if (n >= COMPARE_FILES) break
      // Every (files / COMPARE_FILES)-th file, changed twice over (two lines).
      const f = Math.floor((n * files) / COMPARE_FILES) + 3
      const l = atFork[f % files]
      l[(k * 3) % LINES] = `export const feature${k} = ${n} // feature commit ${k}`
      l[(k * 3 + 7) % LINES] = `// reworked by the feature branch (${k})`
      changed[path(f % files)] = `${l.join('\n')}\n`
    }
    out.push({ branch: 'feature', ...(k === 0 ? { from: 'fork' } : {}), author: 'dev1', message: `Feature step ${k}\n`, files: changed })
  }
  const scenario = {
    version: 1,
    now: '2021-04-01T12:00:00.000Z',
    seed: 26,
    users: [
      { id: 1, username: 'root', name: 'Administrator', email: 'root@example.com', admin: true, created_at: '2020-01-01T00:00:00.000Z', tokens: [{ token: TOKEN, name: 'default', scopes: ['api'], created_at: '2020-01-01T00:00:00.000Z' }] },
      ...authors.map((username, i) => ({ id: 2 + i, username, name: `Developer ${i + 1}`, email: `${username}@example.com`, created_at: '2020-01-01T00:00:00.000Z' })),
    ],
    groups: [{ id: 10, path: 'big', name: 'Big', visibility: 'public', created_at: '2020-01-01T00:00:00.000Z' }],
    projects: [{ id: PROJECT, path: 'monorepo', namespace: 'big', name: 'Monorepo', visibility: 'public', created_at: '2020-01-02T00:00:00.000Z', repository: { commits: out } }],
  }
  return scenario
}
