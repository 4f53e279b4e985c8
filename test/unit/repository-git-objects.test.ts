/**
 * The repository area's object ids are git's: the same files, author, dates and message give the
 * SHA the real `git` binary computes (issue 26 item 1). Node only: runs `git` in a temp directory.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { compareTreeEntries, ObjectStore } from '../../src/resources/repository/git-objects.js'
import { buildRepository } from '../../src/resources/repository/repository.build.js'
import type { ProjectRepositoryRecord } from '../../src/resources/repository/repository.tables.js'

const dir = mkdtempSync(join(tmpdir(), 'fakelab-git-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function git(args: string[], input?: string, env: Record<string, string> = {}): string {
  return execFileSync('git', args, { cwd: dir, input, env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: dir, ...env }, encoding: 'utf8' }).trim()
}

const files: Record<string, string> = {
  'README.md': '# Website\n',
  'a.txt': 'a\n',
  'a/b.txt': 'nested\n',
  'a-b': 'dash\n',
  'src/app.js': 'console.log("héllo")\n',
}

const row: ProjectRepositoryRecord = {
  id: 1,
  project_id: 1,
  default_branch: 'main',
  commits: [
    {
      key: 'init', branch: 'main', parents: null, from: null,
      author_name: 'Max Maintainer', author_email: 'max@example.com', authored_date: '2021-03-01T09:00:00.000Z',
      committer_name: 'Devon Developer', committer_email: 'devon@example.com', committed_date: '2021-03-01T10:30:00.000Z',
      message: 'Initial commit\n\nWith a body.\n', files,
    },
    {
      key: null, branch: 'main', parents: null, from: null,
      author_name: 'Max Maintainer', author_email: 'max@example.com', authored_date: '2021-03-02T09:00:00.000Z',
      committer_name: 'Max Maintainer', committer_email: 'max@example.com', committed_date: '2021-03-02T09:00:00.000Z',
      message: 'Drop a.txt\n', files: { 'a.txt': null, 'a/b.txt': 'changed\n' },
    },
  ],
  branches: {},
  tags: [{ name: 'v1.0', ref: 'main', message: 'Release 1.0\n', tagger_name: 'Max Maintainer', tagger_email: 'max@example.com', tagged_date: '2021-03-03T12:00:00.000Z' }],
}

describe('git objects', () => {
  git(['init', '-q', '-b', 'main'])
  const repo = buildRepository(row)
  const first = repo.objects.commit(repo.objects.commit(repo.branches.get('main')!)!.parents[0]!)!

  it('a blob has the id `git hash-object` gives', () => {
    const store = new ObjectStore()
    writeFileSync(join(dir, 'blob.txt'), files['src/app.js']!)
    expect(store.writeBlob(files['src/app.js']!)).toBe(git(['hash-object', 'blob.txt']))
  })

  it('the trees and commits have the ids `git write-tree` and `git commit-tree` give', () => {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(dir, 'work', path, '..'), { recursive: true })
      writeFileSync(join(dir, 'work', path), text)
    }
    const env = { GIT_WORK_TREE: join(dir, 'work'), GIT_DIR: join(dir, '.git') }
    git(['add', '-A'], undefined, env)
    const tree = git(['write-tree'], undefined, env)
    expect(first.tree).toBe(tree)
    writeFileSync(join(dir, 'msg'), 'Initial commit\n\nWith a body.\n')
    const commit = git(['commit-tree', tree, '-F', join(dir, 'msg')], undefined, {
      GIT_AUTHOR_NAME: 'Max Maintainer', GIT_AUTHOR_EMAIL: 'max@example.com', GIT_AUTHOR_DATE: '2021-03-01T09:00:00Z',
      GIT_COMMITTER_NAME: 'Devon Developer', GIT_COMMITTER_EMAIL: 'devon@example.com', GIT_COMMITTER_DATE: '2021-03-01T10:30:00Z',
    })
    expect(repo.objects.commit(repo.branches.get('main')!)!.parents[0]).toBe(commit)

    rmSync(join(dir, 'work', 'a.txt'))
    writeFileSync(join(dir, 'work', 'a', 'b.txt'), 'changed\n')
    git(['add', '-A'], undefined, env)
    const tree2 = git(['write-tree'], undefined, env)
    const second = git(['commit-tree', tree2, '-p', commit, '-m', 'Drop a.txt'], undefined, {
      GIT_AUTHOR_NAME: 'Max Maintainer', GIT_AUTHOR_EMAIL: 'max@example.com', GIT_AUTHOR_DATE: '2021-03-02T09:00:00Z',
      GIT_COMMITTER_NAME: 'Max Maintainer', GIT_COMMITTER_EMAIL: 'max@example.com', GIT_COMMITTER_DATE: '2021-03-02T09:00:00Z',
    })
    expect(repo.branches.get('main')).toBe(second)
  })

  it('an annotated tag has the id `git mktag` gives', () => {
    const target = repo.branches.get('main')!
    const text = `object ${target}\ntype commit\ntag v1.0\ntagger Max Maintainer <max@example.com> ${Date.parse('2021-03-03T12:00:00Z') / 1000} +0000\n\nRelease 1.0\n`
    writeFileSync(join(dir, 'tag'), text)
    git(['cat-file', '-t', target], undefined, {})
    expect(repo.tags.get('v1.0')).toBe(git(['mktag'], text))
  })

  it('sorts tree entries as git does (a tree compares as name + "/")', () => {
    const names = [
      { mode: '40000', name: 'a' },
      { mode: '100644', name: 'a.txt' },
      { mode: '100644', name: 'a-b' },
      { mode: '100644', name: 'README.md' },
    ] as const
    const sorted = [...names].map((e) => ({ ...e, id: '0'.repeat(40) })).sort(compareTreeEntries).map((e) => e.name)
    expect(sorted).toEqual(['README.md', 'a-b', 'a.txt', 'a'])
  })

  it('sorts non-ASCII names by their UTF-8 bytes, as git does', () => {
    // U+FF21 is EF BC A1 in UTF-8, below the F0 of an astral character, though its UTF-16 unit is above
    // a surrogate's: the order must be the bytes' one.
    const names = ['\u{1F600}', '\uFF21', 'é', 'e', 'z', '\u{1F600}a', '\uFF21/']
      .flatMap((name) => (name.endsWith('/') ? [{ mode: '40000' as const, name: name.slice(0, -1) }] : [{ mode: '100644' as const, name }, { mode: '40000' as const, name: `${name}d` }]))
      .map((e) => ({ ...e, id: '0'.repeat(40) }))
    const key = (e: { mode: string; name: string }) => Buffer.from(e.mode === '40000' ? `${e.name}/` : e.name, 'utf8')
    const expected = [...names].sort((a, b) => Buffer.compare(key(a), key(b))).map((e) => `${e.mode} ${e.name}`)
    expect([...names].sort(compareTreeEntries).map((e) => `${e.mode} ${e.name}`)).toEqual(expected)
  })

  it('numbers commits by generation: 1 for a root, one above the highest parent', () => {
    const store = new ObjectStore()
    const tree = store.writeTree([])
    const who = { name: 'Max', email: 'max@example.com', time: 0, offset: '+0000' }
    const commit = (parents: string[], message: string) => store.writeCommit({ tree, parents, author: who, committer: who, message })
    const root = commit([], 'root\n')
    const left = commit([root], 'left\n')
    const left2 = commit([left], 'left 2\n')
    const right = commit([root], 'right\n')
    const merge = commit([left2, right], 'merge\n')
    const child = store.child()
    const after = child.writeCommit({ tree, parents: [merge], author: who, committer: who, message: 'after\n' })
    expect([root, left, left2, right, merge].map((id) => store.generation(id))).toEqual([1, 2, 3, 2, 4])
    expect(child.generation(after)).toBe(5)
    expect(store.generation(after)).toBeUndefined()
    expect(store.generation(tree)).toBeUndefined()
  })
})
