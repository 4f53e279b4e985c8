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

/**
 * The post-receive lines of a push (each ending in a newline), as the client prints them after
 * `remote: `; push options are not simulated yet, so `options` only reaches the merge request links.
 */
export function pushMessages(ctx: Ctx<unknown>, project: ProjectRecord, _repo: Repository, commands: readonly RefCommand[], _options: readonly string[]): string[] {
  const lines: string[] = []
  const web = projectWebUrl(ctx, project)
  for (const command of commands) {
    if (!command.ref.startsWith('refs/heads/') || command.after === null) continue
    const branch = command.ref.slice(11)
    if (branch === project.default_branch) continue
    const open = mergeRequestsOfProject(ctx.db, project.id).find((mr) => mr.state === 'opened' && mr.source_branch === branch && mr.source_project_id === project.id)
    if (open) lines.push('\n', `View merge request for ${branch}:\n`, `  ${web}/-/merge_requests/${open.iid}\n`, '\n')
    else lines.push('\n', `To create a merge request for ${branch}, visit:\n`, `  ${web}/-/merge_requests/new?merge_request%5Bsource_branch%5D=${encodeURIComponent(branch)}\n`, '\n')
  }
  return lines
}
