/**
 * `GET /projects/:id/repository/archive[.<format>]`: the repository at a commit as `git archive`
 * writes it (a pax global header naming the commit, then every directory and file below the
 * prefix `<project path>-<ref>-<sha>/`, in tree order, dated at the commit), gzipped or zipped with
 * fflate (small, browser-safe, synchronous; node:zlib is neither), or bzip2-compressed
 * (./bzip2.ts). The formats are `Gitlab::PathRegex.archive_formats_regex`'s: `tar.bz2`, `tbz`,
 * `tbz2`, `tb2` and `bz2` are a `.tar.bz2`, `tgz` and `gz` a `.tar.gz` (`archive_file_path`).
 * gitlab: lib/api/repositories.rb (`send_git_archive … append_sha: true`),
 * lib/gitlab/git/repository.rb `archive_prefix`, `archive_file_path`, lib/gitlab/path_regex.rb (13.x);
 * git: archive-tar.c (headers, modes).
 * @module
 */
import { gzipSync, zipSync, type Zippable } from 'fflate'
import { bzip2 } from './bzip2.js'
import { notFound } from '../../core/errors.js'
import { p } from '../../core/params.js'
import { route, type Route } from '../../core/route.js'
import type { ObjectId, TreeEntry } from './git-objects.js'
import type { Repository } from './repository.build.js'
import { projectId, readable } from './repository.helpers.js'
import { commitOf, entryAt, resolveCommit } from './repository.service.js'

const encoder = new TextEncoder()

/** One entry of the archive, in order: a directory (path ending in `/`), a file, or a symlink. */
export interface ArchiveEntry {
  path: string
  kind: 'dir' | 'file' | 'symlink'
  executable: boolean
  data: Uint8Array
}

/** Every directory and file below `treeId`, pre-order in tree order, each under `prefix`. */
function walk(repo: Repository, treeId: ObjectId, prefix: string, out: ArchiveEntry[]): void {
  for (const e of repo.objects.tree(treeId)?.entries ?? []) entry(repo, e, `${prefix}${e.name}`, out)
}

function entry(repo: Repository, e: TreeEntry, path: string, out: ArchiveEntry[]): void {
  if (e.mode === '40000') {
    out.push({ path: `${path}/`, kind: 'dir', executable: true, data: new Uint8Array() })
    walk(repo, e.id, `${path}/`, out)
  } else if (e.mode !== '160000') {
    const data = repo.objects.blob(e.id)?.data ?? new Uint8Array()
    out.push({ path, kind: e.mode === '120000' ? 'symlink' : 'file', executable: e.mode === '100755', data })
  }
}

/** An octal field of `width` bytes, NUL-terminated, as git writes them. */
function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, '0')
}

/** A 512-byte ustar header (git's archive-tar.c: uid/gid 0, uname/gname `root`). */
function header(name: string, mode: number, size: number, mtime: number, type: string, linkname = ''): Uint8Array {
  const block = new Uint8Array(512)
  const put = (offset: number, text: string) => block.set(encoder.encode(text).subarray(0, 512 - offset), offset)
  put(0, name)
  put(100, octal(mode, 8))
  put(108, octal(0, 8))
  put(116, octal(0, 8))
  put(124, octal(size, 12))
  put(136, octal(mtime, 12))
  put(148, '        ')
  put(156, type)
  put(157, linkname)
  put(257, 'ustar')
  put(263, '00')
  put(265, 'root')
  put(297, 'root')
  put(329, octal(0, 8))
  put(337, octal(0, 8))
  let sum = 0
  for (const b of block) sum += b
  put(148, `${sum.toString(8).padStart(6, '0')}\0 `)
  return block
}

/** A pax record `<length> <key>=<value>\n`, the length counting itself. */
function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`
  let length = encoder.encode(body).length + 1
  while (`${length}${body}`.length !== length) length++
  return `${length}${body}`
}

/** Data padded with NULs to a whole number of 512-byte blocks. */
function padded(data: Uint8Array): Uint8Array {
  const out = new Uint8Array(Math.ceil(data.length / 512) * 512)
  out.set(data)
  return out
}

/**
 * The tar stream `git archive --format=tar` writes for these entries (`commit`: the pax global
 * header's comment), or, without `commit`, a plain ustar stream of them (the snapshot's).
 */
export function tar(entries: readonly ArchiveEntry[], commit: ObjectId | null, mtime: number): Uint8Array {
  const parts: Uint8Array[] = []
  if (commit !== null) {
    const global = encoder.encode(paxRecord('comment', commit))
    parts.push(header('pax_global_header', 0o666, global.length, mtime, 'g'), padded(global))
  }
  for (const e of entries) {
    const bytes = encoder.encode(e.path)
    let name = e.path
    if (bytes.length > 100) {
      // archive-tar.c: a long path goes in a pax extended header before the entry.
      const ext = encoder.encode(paxRecord('path', e.path))
      parts.push(header(`${commit ?? 'entry'}.paxheader`, 0o666, ext.length, mtime, 'x'), padded(ext))
      name = e.path.slice(0, 99)
    }
    if (e.kind === 'dir') parts.push(header(name, 0o775, 0, mtime, '5'))
    else if (e.kind === 'symlink') parts.push(header(name, 0o777, 0, mtime, '2', new TextDecoder().decode(e.data)))
    else parts.push(header(name, e.executable ? 0o775 : 0o664, e.data.length, mtime, '0'), padded(e.data))
  }
  parts.push(new Uint8Array(1024))
  let length = 0
  for (const part of parts) length += part.length
  const out = new Uint8Array(length)
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.length
  }
  return out
}

/** `archive_formats_regex` (13.x): every format the route takes, as a path suffix or `format`. */
const FORMATS = ['zip', 'tar', 'tar.gz', 'tgz', 'gz', 'tar.bz2', 'tbz', 'tbz2', 'tb2', 'bz2'] as const

/** What `archive_file_path` makes of a format: the archive's kind and its file's extension. */
function archiveKind(format: string): 'zip' | 'tar' | 'tar.gz' | 'tar.bz2' {
  if (format === 'zip' || format === 'tar') return format
  return ['tar.bz2', 'tbz', 'tbz2', 'tb2', 'bz2'].includes(format) ? 'tar.bz2' : 'tar.gz'
}

/** The archive routes: the default format and one route per format suffix. */
export const archiveRoutes: Route[] = (['', ...FORMATS] as const).map((suffix) =>
  route(`GET /projects/:id/repository/archive${suffix === '' ? '' : `.${suffix}`}`, {
    auth: 'optional',
    params: { ...projectId, sha: p.string(), format: p.string({ values: FORMATS }), path: p.string() },
    handler(ctx) {
      const { project, repo } = readable(ctx)
      const format = archiveKind(suffix === '' ? (ctx.params.format ?? 'tar.gz') : suffix)
      const ref = ctx.params.sha || project.default_branch
      const commit = resolveCommit(repo, ref, project.default_branch)
      // repositories.rb rescues every failure of send_git_archive as 404 File Not Found.
      if (commit === undefined) throw notFound('File')
      const path = (ctx.params.path ?? '').replace(/^\/+|\/+$/g, '')
      const segments = [project.path, ref.replace(/\//g, '-'), commit, ...(path === '' ? [] : [path.replace(/\//g, '-')])]
      const prefix = segments.join('-')
      const root = commitOf(repo, commit).tree
      const at = path === '' ? { mode: '40000' as const, name: '', id: root } : entryAt(repo, root, path)
      if (!at) throw notFound('File')
      const entries: ArchiveEntry[] = [{ path: `${prefix}/`, kind: 'dir', executable: true, data: new Uint8Array() }]
      if (path === '') walk(repo, root, `${prefix}/`, entries)
      else entry(repo, at, `${prefix}/${path}`, entries)
      const mtime = commitOf(repo, commit).committer.time
      let bytes: Uint8Array
      if (format === 'zip') {
        const files: Zippable = {}
        // fflate writes the zip's DOS date from local time fields: shift so they read as UTC.
        const utc = new Date(mtime * 1000)
        const date = new Date(utc.getTime() + utc.getTimezoneOffset() * 60_000)
        for (const e of entries) files[e.path] = e.kind === 'dir' ? [new Uint8Array(), { mtime: date }] : [e.data, { mtime: date }]
        bytes = zipSync(files, { level: 6 })
      } else {
        const archive = tar(entries, commit, mtime)
        // gzip -n as git archive runs it: no name, no time in the gzip header.
        bytes = format === 'tar' ? archive : format === 'tar.bz2' ? bzip2(archive) : gzipSync(archive, { level: 6, mtime: 0 })
      }
      return {
        status: 200,
        bytes,
        headers: {
          'content-type': 'application/octet-stream',
          'content-disposition': `attachment; filename="${prefix}.${format}"`,
          'content-transfer-encoding': 'binary',
          'cache-control': 'private',
        },
      }
    },
  }),
)
