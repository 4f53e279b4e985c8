/**
 * git-upload-pack over smart HTTP, stateless: the ref advertisement (protocol v0/v1), the v2
 * capability advertisement and its `ls-refs` and `fetch` commands, the want/have negotiation
 * (multi_ack_detailed with no-done in v0, acknowledgments in v2), shallow clones and fetches
 * (`deepen <n>`), partial clones (`filter blob:none`, `blob:limit=<n>`: the walk leaves blobs out,
 * a later fetch of missing blobs by id gets them), and the pack of what the client lacks, over side-band-64k. Serves a project's
 * repository as the repository area builds it; writes nothing.
 * Source: git Documentation/technical/pack-protocol.txt, protocol-v2.txt, http-protocol.txt;
 * upload-pack.c (`get_common_commits`, `send_shallow_list`); ls-refs.c.
 * @module
 */
import { concatUint8Arrays } from 'uint8array-extras'
import type { ObjectId, Repository } from '../repository/repository.public.js'
import { DELIM, FLUSH, lineText, pkt, readPackets, sideband, type Packet } from './pkt-line.js'
import { writePack, type RawObject } from './packfile.js'
import { rawOf } from './objects.codec.js'

/** The agent git reports for GitLab 13.12's Gitaly (its bundled git). */
export const AGENT = 'git/2.31.1.gl1'

/** The upload-pack capabilities of the v0 advertisement: the ones implemented here. */
const V0_CAPABILITIES = ['multi_ack_detailed', 'no-done', 'side-band-64k', 'thin-pack', 'ofs-delta', 'shallow', 'no-progress', 'include-tag', 'allow-tip-sha1-in-want', 'allow-reachable-sha1-in-want', 'filter']

/** A ref as advertised: its full name, what it points at and, for an annotated tag, the commit it peels to. */
export interface AdvertisedRef {
  readonly name: string
  readonly id: ObjectId
  readonly peeled?: ObjectId
}

/** What an annotated tag (or a chain of them) finally points at. */
function peel(repo: Repository, id: ObjectId): ObjectId {
  let at = id
  for (let i = 0; i < 64; i++) {
    const tag = repo.objects.tag(at)
    if (!tag) return at
    at = tag.object
  }
  return at
}

/** The repository's refs in git's order: HEAD (when the default branch exists), then every ref by name (branches, tags, notes and other refs). */
export function advertisedRefs(repo: Repository, defaultBranch: string): { head: ObjectId | undefined; refs: AdvertisedRef[] } {
  const refs: AdvertisedRef[] = []
  for (const [name, id] of repo.branches) refs.push({ name: `refs/heads/${name}`, id })
  for (const [name, id] of repo.tags) {
    const peeled = peel(repo, id)
    refs.push(peeled === id ? { name: `refs/tags/${name}`, id } : { name: `refs/tags/${name}`, id, peeled })
  }
  for (const [name, id] of repo.otherRefs) refs.push({ name, id })
  refs.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  return { head: repo.branches.get(defaultBranch), refs }
}

/** The `# service=<name>` banner and its flush that every smart HTTP advertisement starts with. */
export function serviceBanner(service: string): Uint8Array {
  return concatUint8Arrays([pkt(`# service=${service}\n`), FLUSH])
}

/** The v0/v1 advertisement of upload-pack (after the banner); `version 1` first when the client asked for it. */
export function uploadPackAdvertisement(repo: Repository, defaultBranch: string, version: 0 | 1): Uint8Array {
  const { head, refs } = advertisedRefs(repo, defaultBranch)
  const caps = [...V0_CAPABILITIES, ...(head ? [`symref=HEAD:refs/heads/${defaultBranch}`] : []), 'object-format=sha1', `agent=${AGENT}`].join(' ')
  const lines: Uint8Array[] = version === 1 ? [pkt('version 1\n')] : []
  const all: Array<[ObjectId, string]> = []
  if (head) all.push([head, 'HEAD'])
  for (const ref of refs) {
    all.push([ref.id, ref.name])
    if (ref.peeled) all.push([ref.peeled, `${ref.name}^{}`])
  }
  if (all.length === 0) lines.push(pkt(`${'0'.repeat(40)} capabilities^{}\0${caps}\n`))
  all.forEach(([id, name], i) => lines.push(pkt(i === 0 ? `${id} ${name}\0${caps}\n` : `${id} ${name}\n`)))
  lines.push(FLUSH)
  return concatUint8Arrays(lines)
}

/** The v2 capability advertisement (after the banner). */
export function v2Capabilities(): Uint8Array {
  return concatUint8Arrays([pkt('version 2\n'), pkt(`agent=${AGENT}\n`), pkt('ls-refs\n'), pkt('fetch=shallow filter\n'), pkt('server-option\n'), pkt('object-format=sha1\n'), FLUSH])
}

/** A request that is not git's protocol: the message git shows (`fatal: …`), as upload-pack dies with. */
export class ProtocolError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ProtocolError'
  }
}

/** What a fetch asks for, in either protocol version. */
interface FetchRequest {
  wants: ObjectId[]
  haves: ObjectId[]
  /** The client's shallow commits. */
  shallows: Set<ObjectId>
  /** `deepen <n>`; undefined for a full history. */
  depth: number | undefined
  done: boolean
  sideband: boolean
  progress: boolean
  includeTag: boolean
  /**
   * The largest blob (in bytes, exclusive) a `filter` lets through the walk: 0 for `blob:none`,
   * n for `blob:limit=<n>`; undefined for no filter (or one that filters no blob, sent in full).
   */
  blobLimit: number | undefined
}

/** Units of `blob:limit=<n>[kmg]` (git's `git_parse_ulong`: powers of 1024). */
const UNITS: Record<string, number> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }

/**
 * The blob limit of a `filter <spec>` (list-objects-filter-options.c): `blob:none` 0, `blob:limit=<n>[kmg]`
 * n bytes. Other specs (`tree:<depth>`, `sparse:oid=…`, `combine:…`) filter no blob here: the
 * objects they would leave out are sent anyway, which a partial clone accepts (a server may send more).
 * @throws ProtocolError for a spec git itself would refuse to parse.
 */
function blobLimitOf(spec: string): number | undefined {
  if (spec === 'blob:none') return 0
  const limit = /^blob:limit=(\d+)([kmg]?)$/i.exec(spec)
  if (limit) return Number(limit[1]) * UNITS[limit[2]!.toLowerCase()]!
  if (/^(tree:\d+|sparse:oid=.+|combine:.+|object:type=(blob|tree|commit|tag))$/.test(spec)) return undefined
  throw new ProtocolError(`invalid filter-spec '${spec}'`)
}

/** What the pack holds and what the shallow-info says. */
interface PackPlan {
  objects: RawObject[]
  shallow: ObjectId[]
  unshallow: ObjectId[]
}

const HEX40 = /^[0-9a-f]{40}$/

/**
 * The lowest generation number (`ObjectStore.generation`) of the commits a walk from `from` reaches
 * before it meets one of `stops` (which end the walk, themselves included); Infinity for none.
 */
function lowestGeneration(repo: Repository, from: readonly ObjectId[], stops: ReadonlySet<ObjectId>): number {
  let lowest = Infinity
  const seen = new Set<ObjectId>()
  const stack = [...from]
  while (stack.length > 0) {
    const id = stack.pop()!
    if (seen.has(id)) continue
    seen.add(id)
    lowest = Math.min(lowest, repo.objects.generation(id) ?? 0)
    if (stops.has(id)) continue
    for (const parent of repo.objects.commit(id)?.parents ?? []) if (!seen.has(parent)) stack.push(parent)
  }
  return lowest
}

/**
 * The objects a client with `haves` (and shallow at `shallows`) lacks to have `wants`, down to
 * `depth` commits when given: commits first, then trees and blobs, then annotated tags.
 */
function plan(repo: Repository, request: FetchRequest): PackPlan {
  const objects = repo.objects
  const tags: ObjectId[] = []
  const commitWants: ObjectId[] = []
  const extra: ObjectId[] = []
  for (const want of request.wants) {
    let at = want
    while (objects.tag(at)) {
      tags.push(at)
      at = objects.tag(at)!.object
    }
    if (objects.commit(at)) commitWants.push(at)
    else extra.push(at)
  }
  // What the client has: the commits reachable from its common haves, its shallow commits ending
  // its history. Only the ones the walk from the wants can meet matter: without `deepen`, that walk
  // (stopping at the haves themselves) gives the lowest generation it reaches, and no ancestor of a
  // have below it needs marking (a commit's ancestors all have lower generations). A fetch of one
  // commit on a long history so marks a handful, not the whole history.
  const haves = request.haves.filter((id) => objects.commit(id))
  const floor = haves.length === 0 ? Infinity : request.depth === undefined ? lowestGeneration(repo, commitWants, new Set(haves)) : 0
  const had = new Set<ObjectId>()
  const stack = [...haves]
  while (stack.length > 0) {
    const id = stack.pop()!
    if (had.has(id)) continue
    had.add(id)
    if (request.shallows.has(id)) continue
    for (const parent of objects.commit(id)!.parents) if (!had.has(parent) && (objects.generation(parent) ?? 0) >= floor) stack.push(parent)
  }
  // Commits to send, breadth first from the wants, each with its depth (1 for a want).
  const sent: ObjectId[] = []
  const seen = new Map<ObjectId, number>()
  const edges = new Set<ObjectId>()
  const shallow: ObjectId[] = []
  const unshallow: ObjectId[] = []
  let queue: ObjectId[] = commitWants
  let level = 1
  while (queue.length > 0) {
    const next: ObjectId[] = []
    for (const id of queue) {
      if (seen.has(id)) continue
      seen.set(id, level)
      const deepening = request.depth !== undefined && request.shallows.has(id) && level < request.depth
      if (had.has(id) && !deepening) {
        edges.add(id)
        continue
      }
      const commit = objects.commit(id)!
      if (deepening) unshallow.push(id)
      else sent.push(id)
      if (request.depth !== undefined && level >= request.depth) {
        if (commit.parents.length > 0 && !request.shallows.has(id)) shallow.push(id)
        continue
      }
      for (const parent of commit.parents) if (!seen.has(parent)) next.push(parent)
    }
    queue = next
    level++
  }
  // Trees and blobs: what the sent commits' trees hold, less what the edge commits' trees hold (the client has those).
  const excluded = new Set<ObjectId>()
  const walkTree = (root: ObjectId, into: (id: ObjectId, raw: boolean) => boolean) => {
    const trees = [root]
    while (trees.length > 0) {
      const id = trees.pop()!
      if (!into(id, true)) continue
      for (const entry of objects.tree(id)?.entries ?? []) {
        if (entry.mode === '160000') continue
        if (entry.mode === '40000') trees.push(entry.id)
        else into(entry.id, false)
      }
    }
  }
  for (const id of edges) {
    walkTree(objects.commit(id)!.tree, (oid) => {
      if (excluded.has(oid)) return false
      excluded.add(oid)
      return true
    })
  }
  const out: RawObject[] = []
  const packed = new Set<ObjectId>()
  for (const id of sent) out.push(rawOf(objects.commit(id)!))
  const add = (oid: ObjectId): boolean => {
    if (excluded.has(oid) || packed.has(oid)) return false
    packed.add(oid)
    const object = objects.get(oid)
    if (object) out.push(rawOf(object))
    return true
  }
  // A filter leaves out the blobs the walk reaches (never a wanted one: git sends what is named).
  const limit = request.blobLimit
  const walked = limit === undefined ? add : (oid: ObjectId, tree: boolean): boolean => tree || (objects.blob(oid)?.data.length ?? 0) < limit ? add(oid) : false
  for (const id of sent) walkTree(objects.commit(id)!.tree, walked)
  for (const id of extra) {
    const object = objects.get(id)
    if (object?.type === 'tree') walkTree(id, walked)
    else add(id)
  }
  // Annotated tags wanted, and with include-tag the ones pointing at a commit sent.
  const sentSet = new Set(sent)
  if (request.includeTag) {
    for (const id of repo.tags.values()) {
      const tag = objects.tag(id)
      if (tag && sentSet.has(peel(repo, id)) && !request.haves.includes(id)) tags.push(id)
    }
  }
  for (const id of tags) {
    if (packed.has(id)) continue
    packed.add(id)
    out.push(rawOf(objects.tag(id)!))
  }
  return { objects: out, shallow, unshallow }
}

/** The pack and its progress lines, in side-band-64k packets, or the pack alone without side-band. */
function packSection(objects: RawObject[], request: FetchRequest): Uint8Array[] {
  const pack = writePack(objects)
  if (!request.sideband) return [pack]
  const out: Uint8Array[] = []
  if (request.progress) out.push(...sideband(2, `Enumerating objects: ${objects.length}, done.\n`), ...sideband(2, `Total ${objects.length} (delta 0), reused 0 (delta 0), pack-reused 0\n`))
  out.push(...sideband(1, pack))
  return out
}

/** Checks every want names an object of the repository (allow-reachable-sha1-in-want). */
function checkWants(repo: Repository, wants: readonly ObjectId[]): void {
  for (const want of wants) if (!repo.objects.has(want)) throw new ProtocolError(`upload-pack: not our ref ${want}`)
}

/**
 * One stateless v0/v1 upload-pack request (`POST …/git-upload-pack`): wants, shallow lines,
 * `deepen`, haves, and `done` or a flush; answered with the shallow list, the ACKs or NAK and,
 * when the negotiation is over, the pack.
 * @throws ProtocolError for a request that is not git's protocol.
 */
export function uploadPackV0(repo: Repository, body: Uint8Array): Uint8Array {
  const request: FetchRequest = { wants: [], haves: [], shallows: new Set(), depth: undefined, done: false, sideband: false, progress: true, includeTag: false, blobLimit: undefined }
  let noDone = false
  let multiAck = false
  // Whether the request goes on past its wants: a request that ends there (a shallow fetch's first
  // one) gets only the shallow list, as upload-pack meets the end of its input before negotiating.
  let flushes = 0
  for (const packet of readPackets(body).packets) {
    if (packet === 'flush') flushes++
    if (typeof packet === 'string') continue
    const line = lineText(packet)
    if (line.startsWith('want ')) {
      const [id, ...caps] = line.slice(5).split(' ')
      if (!HEX40.test(id ?? '')) throw new ProtocolError(`git upload-pack: protocol error, expected to get object ID, not '${line}'`)
      request.wants.push(id!)
      for (const cap of caps) {
        if (cap === 'side-band-64k' || cap === 'side-band') request.sideband = true
        else if (cap === 'no-progress') request.progress = false
        else if (cap === 'include-tag') request.includeTag = true
        else if (cap === 'no-done') noDone = true
        else if (cap === 'multi_ack_detailed' || cap === 'multi_ack') multiAck = true
      }
    } else if (line.startsWith('shallow ')) request.shallows.add(line.slice(8))
    else if (line.startsWith('deepen ')) request.depth = Number(line.slice(7))
    else if (line.startsWith('filter ')) request.blobLimit = blobLimitOf(line.slice(7))
    else if (line.startsWith('have ')) request.haves.push(line.slice(5))
    else if (line === 'done') request.done = true
  }
  if (request.wants.length === 0) return new Uint8Array()
  checkWants(repo, request.wants)
  const common = request.haves.filter((id) => repo.objects.has(id))
  const out: Uint8Array[] = []
  const result = plan(repo, { ...request, haves: common })
  if (request.depth !== undefined) {
    for (const id of result.shallow) out.push(pkt(`shallow ${id}\n`))
    for (const id of result.unshallow) out.push(pkt(`unshallow ${id}\n`))
    out.push(FLUSH)
  }
  if (flushes < 2 && !request.done) return concatUint8Arrays(out)
  const last = common[common.length - 1]
  if (!request.done) {
    if (multiAck) for (const id of common) out.push(pkt(`ACK ${id} common\n`))
    const ready = last !== undefined && multiAck
    if (ready) out.push(pkt(`ACK ${last} ready\n`))
    out.push(pkt('NAK\n'))
    if (!(noDone && ready)) return concatUint8Arrays(out)
    out.push(pkt(`ACK ${last}\n`))
  } else {
    out.push(pkt(last !== undefined ? `ACK ${last}\n` : 'NAK\n'))
  }
  out.push(...packSection(result.objects, request))
  if (request.sideband) out.push(FLUSH)
  return concatUint8Arrays(out)
}

/** Splits a v2 request into its command, capabilities and arguments. */
function v2Request(body: Uint8Array): { command: string; args: string[] } {
  const packets: Packet[] = readPackets(body).packets
  let command = ''
  const args: string[] = []
  let inArgs = false
  for (const packet of packets) {
    if (packet === 'delim') {
      inArgs = true
      continue
    }
    if (packet === 'flush' || packet === 'end') break
    const line = lineText(packet)
    if (!inArgs) {
      if (line.startsWith('command=')) command = line.slice(8)
    } else args.push(line)
  }
  return { command, args }
}

/** The command of a v2 request (`ls-refs`, `fetch`), for the journal; '' when it names none or is no pkt-line stream. */
export function v2Command(body: Uint8Array): string {
  try {
    return v2Request(body).command
  } catch {
    return ''
  }
}

/**
 * One protocol v2 request (`Git-Protocol: version=2`): `ls-refs` (with `symrefs`, `peel`,
 * `ref-prefix`) or `fetch` (wants, haves, `done`, shallow, `deepen`, include-tag, no-progress).
 * @throws ProtocolError for an unknown command.
 */
export function uploadPackV2(repo: Repository, defaultBranch: string, body: Uint8Array): Uint8Array {
  const { command, args } = v2Request(body)
  if (command === 'ls-refs') return lsRefs(repo, defaultBranch, args)
  if (command === 'fetch') return fetchV2(repo, args)
  throw new ProtocolError(command === '' ? 'no command requested' : `invalid command '${command}'`)
}

function lsRefs(repo: Repository, defaultBranch: string, args: string[]): Uint8Array {
  const symrefs = args.includes('symrefs')
  const peeled = args.includes('peel')
  const prefixes = args.filter((a) => a.startsWith('ref-prefix ')).map((a) => a.slice(11))
  const wanted = (name: string) => prefixes.length === 0 || prefixes.some((p) => name.startsWith(p))
  const { head, refs } = advertisedRefs(repo, defaultBranch)
  const out: Uint8Array[] = []
  if (head && wanted('HEAD')) out.push(pkt(`${head} HEAD${symrefs ? ` symref-target:refs/heads/${defaultBranch}` : ''}\n`))
  for (const ref of refs) if (wanted(ref.name)) out.push(pkt(`${ref.id} ${ref.name}${peeled && ref.peeled ? ` peeled:${ref.peeled}` : ''}\n`))
  out.push(FLUSH)
  return concatUint8Arrays(out)
}

function fetchV2(repo: Repository, args: string[]): Uint8Array {
  const request: FetchRequest = { wants: [], haves: [], shallows: new Set(), depth: undefined, done: false, sideband: true, progress: true, includeTag: false, blobLimit: undefined }
  for (const arg of args) {
    if (arg.startsWith('want ')) request.wants.push(arg.slice(5))
    else if (arg.startsWith('have ')) request.haves.push(arg.slice(5))
    else if (arg.startsWith('shallow ')) request.shallows.add(arg.slice(8))
    else if (arg.startsWith('deepen ')) request.depth = Number(arg.slice(7))
    else if (arg.startsWith('filter ')) request.blobLimit = blobLimitOf(arg.slice(7))
    else if (arg === 'done') request.done = true
    else if (arg === 'no-progress') request.progress = false
    else if (arg === 'include-tag') request.includeTag = true
  }
  checkWants(repo, request.wants)
  const common = request.haves.filter((id) => repo.objects.has(id))
  const out: Uint8Array[] = []
  if (!request.done) {
    out.push(pkt('acknowledgments\n'))
    if (common.length === 0) out.push(pkt('NAK\n'))
    for (const id of common) out.push(pkt(`ACK ${id}\n`))
    if (common.length === 0) {
      out.push(FLUSH)
      return concatUint8Arrays(out)
    }
    out.push(pkt('ready\n'), DELIM)
  }
  const result = plan(repo, { ...request, haves: common })
  if (request.depth !== undefined) {
    out.push(pkt('shallow-info\n'))
    for (const id of result.shallow) out.push(pkt(`shallow ${id}\n`))
    for (const id of result.unshallow) out.push(pkt(`unshallow ${id}\n`))
    out.push(DELIM)
  }
  out.push(pkt('packfile\n'), ...packSection(result.objects, request), FLUSH)
  return concatUint8Arrays(out)
}
