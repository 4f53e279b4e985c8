/**
 * `GET /projects/:id/snapshot` (administrators, `can_read_all_resources`): the repository's git
 * directory as a tar, as Gitaly's GetSnapshot streams it through Workhorse (`snapshot.tar`,
 * `application/x-tar`): `HEAD`, the refs (notes and other pushed refs too), and every object loose (`objects/xx/…`, zlib-deflated
 * `<type> <size>\0<body>`), so the tar unpacks into a bare repository git reads. Entries are dated
 * at the default branch's last commit (the epoch for an empty repository), for the same bytes
 * every time. gitlab: lib/api/project_snapshots.rb, lib/api/helpers/project_snapshots_helpers.rb,
 * lib/gitlab/workhorse.rb `send_git_snapshot` (13.x); gitaly: repository/snapshot.go.
 * @module
 */
import { zlibSync } from 'fflate'
import { p } from '../../core/params.js'
import { route, type Route } from '../../core/route.js'
import { findProject } from '../../rules/finders.js'
import { encodeObject } from './git-objects.js'
import { repositoryOf, type Repository } from './repository.build.js'
import { tar, type ArchiveEntry } from './repository.archive.js'
import { commitOf } from './repository.service.js'

const encoder = new TextEncoder()

function file(path: string, data: Uint8Array | string): ArchiveEntry {
  return { path, kind: 'file', executable: false, data: typeof data === 'string' ? encoder.encode(data) : data }
}

function dir(path: string): ArchiveEntry {
  return { path: `${path}/`, kind: 'dir', executable: true, data: new Uint8Array() }
}

/** The snapshot route. `wiki=true` (the wiki's repository) is taken and answers the project's: fakelab has no wikis. */
export const snapshotRoutes: Route[] = [
  route('GET /projects/:id/snapshot', {
    auth: 'admin',
    params: { id: p.string({ required: true }), wiki: p.boolean() },
    handler(ctx) {
      const project = findProject(ctx, ctx.params.id)
      const repo = repositoryOf(ctx.db, project)
      const entries: ArchiveEntry[] = [file('HEAD', `ref: refs/heads/${project.default_branch}\n`), dir('refs'), dir('refs/heads')]
      for (const [name, id] of [...repo.branches].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) entries.push(file(`refs/heads/${name}`, `${id}\n`))
      entries.push(dir('refs/tags'))
      for (const [name, id] of [...repo.tags].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) entries.push(file(`refs/tags/${name}`, `${id}\n`))
      // Notes and other refs a push stored (`refs/notes/commits`), each under its folders.
      const folders = new Set(['refs', 'refs/heads', 'refs/tags'])
      for (const [ref, id] of [...repo.otherRefs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
        const parts = ref.split('/')
        for (let i = 2; i < parts.length; i++) {
          const folder = parts.slice(0, i).join('/')
          if (!folders.has(folder)) entries.push(dir(folder))
          folders.add(folder)
        }
        entries.push(file(ref, `${id}\n`))
      }
      entries.push(dir('objects'))
      let folder = ''
      for (const id of [...reachable(repo)].sort()) {
        if (id.slice(0, 2) !== folder) entries.push(dir(`objects/${(folder = id.slice(0, 2))}`))
        entries.push(file(`objects/${folder}/${id.slice(2)}`, zlibSync(encodeObject(repo.objects.get(id)!))))
      }
      const head = repo.branches.get(project.default_branch)
      const mtime = head === undefined ? 0 : commitOf(repo, head).committer.time
      return {
        status: 200,
        bytes: tar(entries, null, mtime),
        headers: {
          'content-type': 'application/x-tar',
          'content-disposition': 'attachment; filename="snapshot.tar"',
          'content-transfer-encoding': 'binary',
          'cache-control': 'private',
        },
      }
    },
  }),
]

/** Every object the refs reach (branches, tags, notes and other refs): commits, their trees and blobs, annotated tags. */
function reachable(repo: Repository): Set<string> {
  const seen = new Set<string>()
  const stack = [...repo.branches.values(), ...repo.tags.values(), ...repo.otherRefs.values()]
  while (stack.length > 0) {
    const id = stack.pop()!
    if (seen.has(id)) continue
    const object = repo.objects.get(id)
    if (!object) continue
    seen.add(id)
    if (object.type === 'commit') stack.push(object.tree, ...object.parents)
    else if (object.type === 'tag') stack.push(object.object)
    else if (object.type === 'tree') stack.push(...object.entries.filter((e) => e.mode !== '160000').map((e) => e.id))
  }
  return seen
}
