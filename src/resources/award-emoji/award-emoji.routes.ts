/**
 * Award emoji on issues, merge requests and their notes: list, get, award and remove. The routes
 * are made from one definition looped over the awardables and their two endpoints (the awardable
 * itself, and `…/notes/:note_id`), as GitLab's `API::AwardEmoji` loops over `AWARDABLES` (project snippets
 * among them).
 * Every route needs a signed-in user (`before { authenticate! }`), even the reads.
 * Sources: issue 16 part 3, issue 25 item 1; gitlab: lib/api/award_emoji.rb, spec/requests/api/award_emoji_spec.rb.
 * @module
 */
import { checkUnmodifiedSince } from '../../core/conditional.js'
import { notFound, unauthorized } from '../../core/errors.js'
import { findProject } from '../../rules/finders.js'
import { paginationParams } from '../../core/pagination.js'
import { p, type ParamSpecs } from '../../core/params.js'
import { created, noContent, ok, paginated } from '../../core/respond.js'
import { route, type Ctx, type Route } from '../../core/route.js'
import { AwardEmoji } from './award-emoji.entities.js'
import type { AwardableType } from './award-emoji.awardables.js'
import { awardEmoji, awardsOf, canReadAwardable, findAward, findAwardable, removeAward } from './award-emoji.service.js'

/** The awardables under `/projects/:id`: their path segment and the name of their id parameter. */
const AWARDABLES: readonly { type: AwardableType; segment: string; idParam: string }[] = [
  { type: 'Issue', segment: 'issues', idParam: 'issue_iid' },
  { type: 'MergeRequest', segment: 'merge_requests', idParam: 'merge_request_iid' },
  // Project snippets, by id (the snippets area registers the kind).
  { type: 'Snippet', segment: 'snippets', idParam: 'snippet_id' },
]

type AwardableParams = { id: string; note_id?: number } & Record<string, unknown>

/** The awardable the path names, or the `404 Award Emoji Not Found` GitLab answers a non-reader. */
function readableAwardable(ctx: Ctx<AwardableParams>, type: AwardableType, idParam: string) {
  const project = findProject(ctx, ctx.params.id)
  const awardable = findAwardable(ctx, project, type, ctx.params[idParam] as number, ctx.params.note_id)
  return { project, awardable, readable: canReadAwardable(ctx, project, awardable) }
}

/** Builds the four routes of one endpoint (`base` is the awardable's or its note's path). */
function awardRoutes(type: AwardableType, idParam: string, base: string, onNote: boolean): Route[] {
  const ids: ParamSpecs = { id: p.string({ required: true }), [idParam]: p.integer({ required: true }) }
  if (onNote) ids.note_id = p.integer({ required: true })
  const awardId: ParamSpecs = { ...ids, award_id: p.integer({ required: true }) }
  return [
    route(`GET ${base}/award_emoji`, {
      params: { ...ids, ...paginationParams } as ParamSpecs,
      handler(ctx) {
        const { awardable, readable } = readableAwardable(ctx as unknown as Ctx<AwardableParams>, type, idParam)
        if (!readable) throw notFound('Award Emoji')
        return paginated(ctx as never, awardsOf(ctx.db, awardable), (award) => AwardEmoji(award, ctx))
      },
    }),

    route(`GET ${base}/award_emoji/:award_id`, {
      params: awardId,
      handler(ctx) {
        const { awardable, readable } = readableAwardable(ctx as unknown as Ctx<AwardableParams>, type, idParam)
        if (!readable) throw notFound('Award Emoji')
        return ok(AwardEmoji(findAward(ctx.db, awardable, ctx.params.award_id as number), ctx))
      },
    }),

    route(`POST ${base}/award_emoji`, {
      params: { ...ids, name: p.string({ required: true }) } as ParamSpecs,
      handler(ctx) {
        const { awardable, readable } = readableAwardable(ctx as unknown as Ctx<AwardableParams>, type, idParam)
        // `can_read_awardable? && can_award_awardable?`: whoever reads the issue or merge request may award on it.
        if (!readable) throw notFound('Award Emoji')
        return created(AwardEmoji(awardEmoji(ctx, awardable, ctx.currentUser!, ctx.params.name as string), ctx))
      },
    }),

    route(`DELETE ${base}/award_emoji/:award_id`, {
      params: awardId,
      handler(ctx) {
        // gitlab: no read check here, only the finders; the awarder or an administrator may remove,
        // anyone else gets `unauthorized!` (401, not 403).
        const project = findProject(ctx, ctx.params.id as string)
        const awardable = findAwardable(ctx, project, type, ctx.params[idParam] as number, ctx.params.note_id as number | undefined)
        const award = findAward(ctx.db, awardable, ctx.params.award_id as number)
        const user = ctx.currentUser!
        if (award.user_id !== user.id && !user.admin) throw unauthorized()
        checkUnmodifiedSince(ctx, award.created_at)
        removeAward(ctx.db, awardable, award)
        return noContent()
      },
    }),
  ]
}

/** The award emoji routes: for each awardable, on itself and on its notes. */
export const awardEmojiRoutes: Route[] = AWARDABLES.flatMap(({ type, segment, idParam }) => {
  const base = `/projects/:id/${segment}/:${idParam}`
  return [...awardRoutes(type, idParam, base, false), ...awardRoutes(type, idParam, `${base}/notes/:note_id`, true)]
})
