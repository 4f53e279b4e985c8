/**
 * What a push brought, computed once for everything that reports it: the commits a ref's move
 * added, as `Gitlab::DataBuilder::Push` and the push event's payload count them. A new branch's
 * commits are those not on the default branch, an updated one's those between the old and the new
 * tip (`Git::BranchHooksService#commits`); a tag push lists the tag's commit
 * (`Git::TagHooksService#limited_commits`); a deletion none.
 * gitlab: app/services/git/branch_hooks_service.rb, tag_hooks_service.rb (13.12).
 * @module
 */
import type { ProjectRecord } from '../../db/schema.js'
import type { Repository } from './repository.build.js'
import { log, peelToCommit } from './repository.service.js'

/** One ref a push moved: its full name (`refs/heads/main`) and its tips before and after (null: absent). */
export interface PushedRef {
  readonly ref: string
  readonly before: string | null
  readonly after: string | null
}

/**
 * The commits one ref's move added, oldest first (ids, 40 hex digits).
 * @param repo the repository after the push; `previous`, before it.
 */
export function pushedCommits(project: ProjectRecord, update: PushedRef, repo: Repository, previous: Repository): string[] {
  if (update.after === null) return []
  if (update.ref.startsWith('refs/tags/')) {
    const target = peelToCommit(repo, update.after)
    return target === undefined ? [] : [target]
  }
  const defaultTip = previous.branches.get(project.default_branch)
  const not = update.before !== null ? [update.before] : defaultTip !== undefined && defaultTip !== update.after ? [defaultTip] : []
  if (update.before === null && not.length === 0 && update.ref !== `refs/heads/${project.default_branch}`) return []
  return log(repo, [update.after], { not }).reverse()
}
