/**
 * git-receive-pack over smart HTTP: the advertisement, the pushed commands, push options and pack,
 * GitLab's pre-receive checks (all-or-nothing: one refused ref declines the whole push, as
 * gitlab-shell's pre-receive hook does), and the refs moved through ONE {@link RepositoryWrite},
 * whose save publishes the `push` fact (events, webhooks, merge requests reading their source
 * branch afresh) and, on a first push, makes the pushed branch the default branch.
 * Source: git Documentation/technical/pack-protocol.txt (report-status), receive-pack.c;
 * gitlab: lib/gitlab/checks/change_access.rb, branch_check.rb, tag_check.rb (13.12).
 * @module
 */
import type { Ctx } from '../../core/route.js'
import type { ProjectRecord } from '../../db/schema.js'
import {
  allowsForcePush, ancestors, branchCreationRefusal, branchDeletionRefusal, canPushToBranch, isProtectedBranch, RepositoryWrite,
  saveWrite, type ObjectId, type Repository,
} from '../repository/repository.public.js'
import { AccessLevel, projectAccessLevel } from '../../rules/access.js'
import { decodeObject, rawOf } from './objects.codec.js'
import { PackError, readPack } from './packfile.js'
import { concat, FLUSH, lineText, pkt, readPackets, sideband } from './pkt-line.js'
import { AGENT, advertisedRefs } from './upload-pack.js'

const ZERO = '0'.repeat(40)

/** receive-pack's capabilities as GitLab's Gitaly (git 2.31) advertises them. */
const CAPABILITIES = `report-status report-status-v2 delete-refs side-band-64k quiet atomic ofs-delta push-options object-format=sha1 agent=${AGENT}`

/** The receive-pack advertisement (after the banner): every ref, no HEAD; `capabilities^{}` for an empty repository. */
export function receivePackAdvertisement(repo: Repository, defaultBranch: string): Uint8Array {
  const { refs } = advertisedRefs(repo, defaultBranch)
  if (refs.length === 0) return concat([pkt(`${ZERO} capabilities^{}\0${CAPABILITIES}\n`), FLUSH])
  return concat([...refs.map((ref, i) => pkt(i === 0 ? `${ref.id} ${ref.name}\0${CAPABILITIES}\n` : `${ref.id} ${ref.name}\n`)), FLUSH])
}

/** One pushed command. */
export interface RefCommand {
  readonly before: ObjectId | null
  readonly after: ObjectId | null
  readonly ref: string
}

/** What a push did: the report sent back, the refs it moved (none when refused), its push options. */
export interface PushOutcome {
  readonly reply: Uint8Array
  readonly commands: readonly RefCommand[]
  readonly applied: boolean
  readonly options: readonly string[]
}

/** The messages a push's checks and post-receive print (`remote: …` on the client), before its report. */
export interface PushHooks {
  /** Extra lines after a successful push (post-receive: the merge request links, push options' messages). */
  after?: (write: Repository, commands: readonly RefCommand[], options: readonly string[]) => string[]
}

/** `Gitlab::Checks` refusal of one change, or null (branch and tag checks, 13.12). */
function changeRefusal(ctx: Ctx<unknown>, project: ProjectRecord, repo: Repository, command: RefCommand): string | null {
  const { ref, before, after } = command
  if (ref.startsWith('refs/heads/')) {
    const name = ref.slice(11)
    if (after === null) {
      if (name === project.default_branch) return 'The default branch of a project cannot be deleted.'
      if (!isProtectedBranch(ctx.db, project, repo, name)) return null
      return branchDeletionRefusal(ctx, project, repo, name) ?? 'You can only delete protected branches using the web interface.'
    }
    if (before === null) {
      const onProtected = () => [...repo.branches].some(([branch, tip]) => isProtectedBranch(ctx.db, project, repo, branch) && (tip === after || ancestors(repo, tip).has(after)))
      return branchCreationRefusal(ctx, project, repo, name, onProtected)
    }
    if (!isProtectedBranch(ctx.db, project, repo, name)) return null
    const forced = !ancestors(repo, after).has(before)
    if (forced && !allowsForcePush(ctx.db, project, name)) return 'You are not allowed to force push code to a protected branch on this project.'
    return canPushToBranch(ctx, project, repo, name) ? null : 'You are not allowed to push code to protected branches on this project.'
  }
  if (ref.startsWith('refs/tags/')) {
    const user = ctx.currentUser
    const maintainer = user !== null && (user.admin || projectAccessLevel(ctx.db, user, project, ctx.today) >= AccessLevel.MAINTAINER)
    if (before !== null && !maintainer) return 'You are not allowed to change existing tags on this project.'
    return null
  }
  return null
}

/**
 * One `POST …/git-receive-pack`: reads the commands, push options and pack, checks and applies them
 * in one write. Nothing is saved when the pack is bad or a check refuses.
 */
export function receivePack(ctx: Ctx<unknown>, project: ProjectRecord, body: Uint8Array, hooks: PushHooks = {}): PushOutcome {
  const read = readPackets(body, 0, 1)
  const commands: RefCommand[] = []
  const caps = new Set<string>()
  for (const packet of read.packets) {
    if (typeof packet === 'string') continue
    const line = lineText(packet)
    const nul = line.indexOf('\0')
    if (nul !== -1) for (const cap of line.slice(nul + 1).split(' ')) caps.add(cap)
    const [before, after, ref] = (nul === -1 ? line : line.slice(0, nul)).split(' ')
    if (!before || !after || !ref) continue
    commands.push({ before: before === ZERO ? null : before, after: after === ZERO ? null : after, ref })
  }
  let at = read.end
  const options: string[] = []
  if (caps.has('push-options')) {
    const more = readPackets(body, at, 1)
    for (const packet of more.packets) if (typeof packet !== 'string') options.push(lineText(packet))
    at = more.end
  }
  const useSideband = caps.has('side-band-64k') || caps.has('side-band')
  const messages: string[] = []
  const report = (unpack: string, statuses: string[]): Uint8Array => {
    const status = concat([pkt(`unpack ${unpack}\n`), ...statuses.map((s) => pkt(`${s}\n`)), FLUSH])
    if (!useSideband) return status
    const out: Uint8Array[] = []
    if (!caps.has('quiet') || messages.length > 0) for (const m of messages) out.push(...sideband(2, m))
    out.push(...sideband(1, status), FLUSH)
    return concat(out)
  }
  const write = new RepositoryWrite(ctx.db, project)
  const repo = write.repo
  if (at < body.length && commands.some((c) => c.after !== null)) {
    try {
      const objects = readPack(body.subarray(at), (id) => {
        const o = repo.objects.get(id)
        return o ? rawOf(o) : undefined
      })
      for (const o of objects) write.writeObject(decodeObject(o, o.id))
    } catch (error) {
      if (!(error instanceof PackError)) throw error
      return { reply: report(error.message, commands.map((c) => `ng ${c.ref} unpacker error`)), commands, applied: false, options }
    }
  }
  // receive-pack's own checks: what is not git's or fakelab's to store.
  const statuses = commands.map((c): string | null => {
    if (!c.ref.startsWith('refs/heads/') && !c.ref.startsWith('refs/tags/')) return `ng ${c.ref} fakelab keeps branches and tags only`
    const current = c.ref.startsWith('refs/heads/') ? repo.branches.get(c.ref.slice(11)) ?? null : repo.tags.get(c.ref.slice(10)) ?? null
    if (current !== c.before) return `ng ${c.ref} failed to update ref`
    if (c.after !== null && !repo.objects.has(c.after)) return `ng ${c.ref} missing necessary objects`
    if (c.after !== null && c.ref.startsWith('refs/heads/') && !repo.objects.commit(c.after)) return `ng ${c.ref} non-commit object on a branch`
    return null
  })
  if (statuses.some((s) => s !== null)) {
    return { reply: report('ok', commands.map((c, i) => statuses[i] ?? `ng ${c.ref} atomic push failed`)), commands, applied: false, options }
  }
  for (const command of commands) {
    const refusal = changeRefusal(ctx, project, repo, command)
    if (refusal) {
      messages.push(`GitLab: ${refusal}\n`)
      return { reply: report('ok', commands.map((c) => `ng ${c.ref} pre-receive hook declined`)), commands, applied: false, options }
    }
  }
  for (const c of commands) {
    if (c.ref.startsWith('refs/heads/')) write.setBranch(c.ref.slice(11), c.after)
    else write.setTag(c.ref.slice(10), c.after)
  }
  const after = saveWrite(ctx, project, write, options)
  if (hooks.after) messages.push(...hooks.after(after, commands, options))
  return { reply: report('ok', commands.map((c) => `ok ${c.ref}`)), commands, applied: true, options }
}
