/**
 * git's smart HTTP at GitLab's URLs, outside `/api/v4`: `GET /<project>.git/info/refs?service=…`,
 * `POST /<project>.git/git-upload-pack` and `POST /<project>.git/git-receive-pack` (the `.git`
 * optional, the path case-insensitive; a namespace of any depth). Each authenticates as
 * `GitHttpClientController#authenticate_user` does (HTTP Basic, else an anonymous download of a
 * public project, else 401 with `WWW-Authenticate: Basic realm="GitLab"`), checks access as
 * `Gitlab::GitAccess` does (its texts as plain-text 403/404 bodies), then speaks git's protocol.
 * gitlab: app/controllers/repositories/git_http_controller.rb, git_http_client_controller.rb,
 * config/routes/git_http.rb (13.12); workhorse internal/git (content types, `Cache-Control`).
 * @module
 */
import { concatUint8Arrays } from 'uint8array-extras'
import { gunzipSync } from 'fflate'
import { p } from '../../core/params.js'
import { route, type Ctx, type Reply, type Route } from '../../core/route.js'
import type { ProjectRecord, UserRecord } from '../../db/schema.js'
import { projectByRedirect } from '../projects/projects.public.js'
import { repositoryOf } from '../repository/repository.public.js'
import { ANONYMOUS_ACTOR, basicCredentials, findForGitClient, gitAccessRefusal, GIT_ACCESS_MESSAGES, gitUserRefusal, type GitActor } from './git-auth.js'
import { pushMessages } from './git-http.push-options.js'
import { receivePack, receivePackAdvertisement } from './receive-pack.js'
import { PktLineError } from './pkt-line.js'
import { ProtocolError, serviceBanner, v2Command, uploadPackAdvertisement, uploadPackV0, uploadPackV2, v2Capabilities } from './upload-pack.js'

type Service = 'git-upload-pack' | 'git-receive-pack'
const utf8 = new TextEncoder()

/** A plain-text answer, as Rails' `render plain:` gives. */
function plain(status: number, text: string, headers: Record<string, string> = {}): Reply {
  return { status, bytes: utf8.encode(text), headers: { 'content-type': 'text/plain; charset=utf-8', ...headers } }
}

/** GitLab's 401 with its Basic challenge, which makes git ask for credentials (13.12's text). */
function challenge(): Reply {
  return plain(401, 'HTTP Basic: Access denied\n', { 'www-authenticate': 'Basic realm="GitLab"' })
}

/**
 * The project a repository path names (`group/sub/project.git`, `.git` optional), case-insensitive,
 * following redirect routes (`Gitlab::RepoPath.find_project`: `follow_redirects: true`), with the
 * old path when it was one (`redirected?`: the path asked differs from the project's).
 */
function projectAt(ctx: Ctx<unknown>, path: string): { project: ProjectRecord | undefined; redirectedFrom?: string } {
  const full = path.replace(/\/+$/, '').replace(/\.git$/i, '')
  if (!full.includes('/')) return { project: undefined }
  const project = ctx.db.findProjectByFullPath(full)
  if (project) return { project }
  const moved = projectByRedirect(ctx.db, full)
  return moved ? { project: moved, redirectedFrom: full } : { project: undefined }
}

/**
 * `Gitlab::Checks::ProjectMoved#message` as post-receive prints it after a push to an old path
 * (`PostReceiveService`: a basic message after the merge request links; none for an anonymous actor).
 */
function projectMovedLines(ctx: Ctx<unknown>, project: ProjectRecord, redirectedFrom: string): string[] {
  const url = `${ctx.baseUrl}/${ctx.db.projectFullPath(project)}.git`
  return ['\n', `Project '${redirectedFrom}' was moved to '${ctx.db.projectFullPath(project)}'.\n`, '\n', 'Please update your Git remote:\n', '\n', `  git remote set-url origin ${url}\n`, '\n', '\n']
}

/** The context of a request acting as the git actor's user (the checks read `ctx.currentUser`). */
function actingAs(ctx: Ctx<unknown>, user: UserRecord | null): Ctx<unknown> {
  return {
    request: ctx.request,
    get url() {
      return ctx.url
    },
    method: ctx.method,
    routeKey: ctx.routeKey,
    params: ctx.params,
    raw: ctx.raw,
    currentUser: user,
    auth: { ...ctx.auth, user, tokenUser: user },
    db: ctx.db,
    clock: ctx.clock,
    today: ctx.today,
    now: ctx.now,
    baseUrl: ctx.baseUrl,
    get faker() {
      return ctx.faker
    },
    body: ctx.body,
  }
}

/**
 * Authenticates and authorises a git request (the controller's `authenticate_user`, then
 * `GitAccess#check`): the project and actor, or the answer that refuses it.
 */
function admitGit(ctx: Ctx<unknown>, path: string, service: Service): { project: ProjectRecord; actor: GitActor; redirectedFrom?: string } | Reply {
  const { project, redirectedFrom } = projectAt(ctx, path)
  const credentials = basicCredentials(ctx.request.header('authorization'))
  let actor: GitActor
  if (credentials) {
    const found = findForGitClient(ctx.db, credentials.login, credentials.password, project, ctx.clock.now())
    if (!found) return challenge()
    actor = found
  } else if (service === 'git-upload-pack' && project && project.visibility === 'public') {
    actor = ANONYMOUS_ACTOR
  } else {
    return challenge()
  }
  const blocked = gitUserRefusal(actor, ctx.baseUrl)
  if (blocked) return plain(blocked.status, blocked.message)
  if (!project) return plain(404, GIT_ACCESS_MESSAGES.project_not_found)
  const refusal = gitAccessRefusal(ctx, actor, project, service === 'git-upload-pack' ? 'download' : 'push')
  if (refusal) return plain(refusal.status, refusal.message)
  return { project, actor, ...(redirectedFrom !== undefined ? { redirectedFrom } : {}) }
}

/**
 * The request body, gunzipped when git sent it compressed (`Content-Encoding: gzip`, requests over 1 KiB).
 * @throws PktLineError for a body that says gzip and is not.
 */
function bodyOf(ctx: Ctx<unknown>): Uint8Array {
  const body = ctx.body ?? new Uint8Array()
  const encoding = ctx.request.header('content-encoding')?.toLowerCase()
  if (encoding !== 'gzip' && encoding !== 'x-gzip') return body
  try {
    return gunzipSync(body)
  } catch {
    throw new PktLineError('fatal: request body is not gzip data')
  }
}

/** The 400 git's protocol errors get (upload-pack and receive-pack die with their message). */
function isProtocolError(error: unknown): error is Error {
  return error instanceof ProtocolError || error instanceof PktLineError
}

/** Whether the client asked for protocol v2 (`Git-Protocol: version=2`), else the version it named (0 or 1). */
function protocolVersion(ctx: Ctx<unknown>): 0 | 1 | 2 {
  const header = ctx.request.header('git-protocol') ?? ''
  const versions = header.split(':').filter((p) => p.startsWith('version=')).map((p) => Number(p.slice(8)))
  return versions.includes(2) ? 2 : versions.includes(1) ? 1 : 0
}

function gitReply(type: string, bytes: Uint8Array): Reply {
  return { status: 200, bytes, headers: { 'content-type': type, 'cache-control': 'no-cache' } }
}

/** A reply with what the request journal shows of it: the git actor's username and the service (and refs). */
function noted(reply: Reply, actor: GitActor | undefined, detail: string): Reply {
  return { ...reply, journal: { user: actor?.user?.username ?? null, detail } }
}

const repositoryParam = { repository: p.string({ required: true }) }

/** The three routes of git's smart HTTP protocol. */
export const gitHttpWebRoutes: Route[] = [
  route('GET /*repository/info/refs', {
    auth: 'none',
    params: { ...repositoryParam, service: p.string() },
    handler(ctx) {
      const service = ctx.params.service
      if (service !== 'git-upload-pack' && service !== 'git-receive-pack') {
        // GitLab serves no dumb HTTP: Workhorse answers a ref list without `service` as not found.
        return plain(404, GIT_ACCESS_MESSAGES.project_not_found)
      }
      const admitted = admitGit(ctx, ctx.params.repository, service)
      if (!('project' in admitted)) return noted(admitted, undefined, service)
      const { project, actor } = admitted
      const repo = repositoryOf(ctx.db, project)
      const version = protocolVersion(ctx)
      const body = service === 'git-receive-pack'
        ? receivePackAdvertisement(repo, project.default_branch)
        : version === 2 ? v2Capabilities() : uploadPackAdvertisement(repo, project.default_branch, version === 1 ? 1 : 0)
      return noted(gitReply(`application/x-${service}-advertisement`, concatUint8Arrays([serviceBanner(service), body])), actor, `${service}${version === 2 ? ' v2' : ''}`)
    },
  }),
  route('POST /*repository/git-upload-pack', {
    auth: 'none',
    rawBody: true,
    params: repositoryParam,
    handler(ctx) {
      const admitted = admitGit(ctx, ctx.params.repository, 'git-upload-pack')
      if (!('project' in admitted)) return noted(admitted, undefined, 'git-upload-pack')
      const { project, actor } = admitted
      const repo = repositoryOf(ctx.db, project)
      const v2 = protocolVersion(ctx) === 2
      try {
        const body = bodyOf(ctx)
        const bytes = v2 ? uploadPackV2(repo, project.default_branch, body) : uploadPackV0(repo, body)
        return noted(gitReply('application/x-git-upload-pack-result', bytes), actor, `git-upload-pack${v2 ? ` v2 ${v2Command(body)}` : ''}`)
      } catch (error) {
        if (isProtocolError(error)) return noted(plain(400, `${error.message}\n`), actor, 'git-upload-pack')
        throw error
      }
    },
  }),
  route('POST /*repository/git-receive-pack', {
    auth: 'none',
    rawBody: true,
    params: repositoryParam,
    handler(ctx) {
      const admitted = admitGit(ctx, ctx.params.repository, 'git-receive-pack')
      if (!('project' in admitted)) return noted(admitted, undefined, 'git-receive-pack')
      const { project, actor, redirectedFrom } = admitted
      const acting = actingAs(ctx, actor.user)
      const moved = (): string[] => (redirectedFrom !== undefined && actor.user ? projectMovedLines(ctx, project, redirectedFrom) : [])
      let outcome: ReturnType<typeof receivePack>
      try {
        outcome = receivePack(acting, project, bodyOf(ctx), { after: (repo, commands, options) => [...pushMessages(acting, project, repo, commands, options), ...moved()] })
      } catch (error) {
        if (isProtocolError(error)) return noted(plain(400, `${error.message}\n`), actor, 'git-receive-pack')
        throw error
      }
      const refs = outcome.commands.map((c) => c.ref).join(' ')
      return noted(gitReply('application/x-git-receive-pack-result', outcome.reply), actor, `git-receive-pack ${refs}${outcome.applied ? '' : ' (declined)'}`)
    },
  }),
]
