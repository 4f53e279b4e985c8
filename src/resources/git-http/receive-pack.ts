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
import { concatUint8Arrays } from 'uint8array-extras'
import type { Ctx } from '../../core/route.js'
import type { ProjectRecord } from '../../db/schema.js'
import { canPushCode } from '../../rules/protected-refs.js'
import {
  allowsForcePush, ancestors, branchCreationRefusal, branchDeletionRefusal, canPushToBranch, isProtectedBranch, refTarget, RepositoryWrite,
  saveWrite, type ObjectId, type Repository,
} from '../repository/repository.public.js'
import { protectedTagRefusal } from '../protected-tags/protected-tags.public.js'
import { decodeObject, rawOf } from './objects.codec.js'
import { PackError, readPack } from './packfile.js'
import { FLUSH, lineText, pkt, readPackets, sideband } from './pkt-line.js'
import { AGENT, advertisedRefs } from './upload-pack.js'

const ZERO = '0'.repeat(40)

/** receive-pack's capabilities as GitLab's Gitaly (git 2.31) advertises them. */
const CAPABILITIES = `report-status report-status-v2 delete-refs side-band-64k quiet atomic ofs-delta push-options object-format=sha1 agent=${AGENT}`

/**
 * The receive-pack advertisement (after the banner): every ref but GitLab's hidden ones
 * (`receive.hideRefs`: a merge request's head and merge refs, pipelines' refs, …), no HEAD;
 * `capabilities^{}` for an empty repository.
 */
export function receivePackAdvertisement(repo: Repository, defaultBranch: string): Uint8Array {
  const refs = advertisedRefs(repo, defaultBranch).refs.filter((ref) => !isHiddenRef(ref.name))
  if (refs.length === 0) return concatUint8Arrays([pkt(`${ZERO} capabilities^{}\0${CAPABILITIES}\n`), FLUSH])
  return concatUint8Arrays([...refs.map((ref, i) => pkt(i === 0 ? `${ref.id} ${ref.name}\0${CAPABILITIES}\n` : `${ref.id} ${ref.name}\n`)), FLUSH])
}

/**
 * GitLab's hidden refs: Gitaly runs receive-pack with `receive.hideRefs` set to these (refs GitLab
 * itself keeps for merge requests, pipelines, environments and kept-around commits), so a push to
 * one is refused by git itself and they are not advertised to a pusher.
 * gitaly: internal/git/receivepack.go (`ReceivePackConfig`), 13.12.
 */
const HIDDEN_REF_PREFIXES = ['refs/environments/', 'refs/keep-around/', 'refs/merge-requests/', 'refs/pipelines/']

/** Whether receive-pack hides the ref of full name `ref` (see {@link HIDDEN_REF_PREFIXES}). */
function isHiddenRef(ref: string): boolean {
  return HIDDEN_REF_PREFIXES.some((prefix) => ref.startsWith(prefix))
}

/**
 * git's `check_refname_format` as receive-pack applies it (`refs/` and a valid name after it): no
 * component empty or starting with `.` or ending with `.lock`, no `..`, `@{`, control character,
 * space, `~^:?*[\`, no trailing `/` or `.`, not `@`. Source: git refs.c (`check_refname_component`).
 */
function isValidRefName(ref: string): boolean {
  if (!ref.startsWith('refs/') || ref.length === 5) return false
  if (ref.endsWith('/') || ref.endsWith('.') || ref.includes('..') || ref.includes('@{') || ref === '@') return false
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x20\x7f~^:?*[\\]/.test(ref)) return false
  return ref.split('/').every((part) => part !== '' && !part.startsWith('.') && !part.endsWith('.lock'))
}

/** One pushed command. */
export interface RefCommand {
  readonly before: ObjectId | null
  readonly after: ObjectId | null
  readonly ref: string
}

/** What a push did: the report sent back, its commands (those it applied when it moved refs), whether it moved any, its push options. */
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
    // TagCheck (13.12): changing an existing tag needs `admin_tag` (= `push_code`), then protected tags' checks.
    if (before !== null && !canPushCode(ctx, project)) return 'You are not allowed to change existing tags on this project.'
    return protectedTagRefusal(ctx, project, ref.slice(10), before, after)
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
    const status = concatUint8Arrays([pkt(`unpack ${unpack}\n`), ...statuses.map((s) => pkt(`${s}\n`)), FLUSH])
    if (!useSideband) return status
    const out: Uint8Array[] = []
    if (!caps.has('quiet') || messages.length > 0) for (const m of messages) out.push(...sideband(2, m))
    out.push(...sideband(1, status), FLUSH)
    return concatUint8Arrays(out)
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
  // receive-pack's order (receive-pack.c `execute_commands`): its own checks of each command
  // (`reject_updates_to_hidden`, the connectivity check), the pre-receive hook fed the commands
  // still standing, then `update` of each. Without `atomic` a failed command fails alone; with it,
  // the others fail as "atomic push failure" and nothing moves.
  const atomic = caps.has('atomic')
  const errors = commands.map((c): string | null => {
    if (!isValidRefName(c.ref)) return 'funny refname'
    if (isHiddenRef(c.ref)) return c.after === null ? 'deny deleting a hidden ref' : 'deny updating a hidden ref'
    if (c.after !== null && !repo.objects.has(c.after)) return 'missing necessary objects'
    if (c.after !== null && c.ref.startsWith('refs/heads/') && !repo.objects.commit(c.after)) return 'non-commit object on a branch'
    return null
  })
  const declined = (): PushOutcome => {
    const statuses = commands.map((c, i) => `ng ${c.ref} ${errors[i] ?? 'atomic push failure'}`)
    return { reply: report('ok', statuses), commands, applied: false, options }
  }
  if (atomic && errors.some((e) => e !== null)) return declined()
  // GitLab's pre-receive (gitlab-shell → `/internal/allowed`): one refused change declines every command it was fed.
  for (const [i, command] of commands.entries()) {
    if (errors[i] !== null) continue
    const refusal = changeRefusal(ctx, project, repo, command)
    if (refusal) {
      messages.push(`GitLab: ${refusal}\n`)
      commands.forEach((_, j) => (errors[j] ??= 'pre-receive hook declined'))
      return declined()
    }
  }
  commands.forEach((c, i) => {
    if (errors[i] === null && refTarget(repo, c.ref) !== c.before) errors[i] = 'failed to update ref'
  })
  if (atomic && errors.some((e) => e !== null)) return declined()
  const applied = commands.filter((_, i) => errors[i] === null)
  if (applied.length === 0) return declined()
  for (const c of applied) write.setRef(c.ref, c.after)
  const after = saveWrite(ctx, project, write, options)
  if (hooks.after) messages.push(...hooks.after(after, applied, options))
  return { reply: report('ok', commands.map((c, i) => (errors[i] === null ? `ok ${c.ref}` : `ng ${c.ref} ${errors[i]}`))), commands: applied, applied: true, options }
}
