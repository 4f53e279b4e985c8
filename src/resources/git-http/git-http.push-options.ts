/**
 * What a push prints after it is received (gitlab-shell's post-receive output, `remote: …` on the
 * client): for each branch pushed, the link to its open merge request ("View merge request for
 * <branch>:") or to create one ("To create a merge request for <branch>, visit:"), as
 * `MergeRequests::GetUrlsService` gives them; none for the default branch or a deletion.
 * gitlab: app/services/merge_requests/get_urls_service.rb, lib/gitlab/git_post_receive.rb,
 * gitlab-shell internal/command/receivepack (13.12).
 * @module
 */
import type { Ctx } from '../../core/route.js'
import type { ProjectRecord } from '../../db/schema.js'
import { projectWebUrl } from '../../entities/urls.js'
import { mergeRequestsOfProject } from '../merge-requests/merge-requests.public.js'
import type { Repository } from '../repository/repository.public.js'
import type { RefCommand } from './receive-pack.js'

/** gitlab-shell's frame around an alert message (`Gitlab::Git::PostReceive` alerts, 72 `=`). */
function alert(message: string): string[] {
  const rule = `${'='.repeat(72)}\n`
  return ['\n', rule, '\n', ...message.split('\n').map((line) => `${line}\n`), '\n', rule, '\n']
}

/**
 * The post-receive lines of a push (each ending in a newline), as the client prints them after
 * `remote: `: the push options' warning (`PostReceiveService#push_options_warning`: a
 * `merge_request.*` option without `merge_request.create` for a branch that has no open merge
 * request, or a `merge_request.target` that is no branch), then each pushed branch's merge request
 * link. The merge requests area has acted on the options already (it subscribes to the push).
 */
export function pushMessages(ctx: Ctx<unknown>, project: ProjectRecord, repo: Repository, commands: readonly RefCommand[], options: readonly string[]): string[] {
  const lines: string[] = []
  const web = projectWebUrl(ctx, project)
  const openFor = (branch: string) => mergeRequestsOfProject(ctx.db, project.id).find((mr) => mr.state === 'opened' && mr.source_branch === branch && mr.source_project_id === project.id)
  const mrOptions = options.filter((o) => o.startsWith('merge_request.'))
  if (mrOptions.length > 0) {
    const errors: string[] = []
    const target = mrOptions.find((o) => o.startsWith('merge_request.target='))?.slice('merge_request.target='.length)
    if (target !== undefined && !repo.branches.has(target)) errors.push(`Branch ${target} does not exist`)
    else {
      for (const command of commands) {
        if (!command.ref.startsWith('refs/heads/') || command.after === null) continue
        const branch = command.ref.slice(11)
        if (branch !== project.default_branch && !openFor(branch) && !mrOptions.includes('merge_request.create')) errors.push(`A merge_request.create push option is required to create a merge request for branch ${branch}`)
      }
    }
    if (errors.length > 0) lines.push(...alert(`WARNINGS:\nError encountered with push options ${options.map((o) => `'${o}'`).join(' ')}: ${errors.join('\n\n')}`))
  }
  for (const command of commands) {
    if (!command.ref.startsWith('refs/heads/') || command.after === null) continue
    const branch = command.ref.slice(11)
    if (branch === project.default_branch) continue
    const open = openFor(branch)
    if (open) lines.push('\n', `View merge request for ${branch}:\n`, `  ${web}/-/merge_requests/${open.iid}\n`, '\n')
    else lines.push('\n', `To create a merge request for ${branch}, visit:\n`, `  ${web}/-/merge_requests/new?merge_request%5Bsource_branch%5D=${encodeURIComponent(branch)}\n`, '\n')
  }
  return lines
}
