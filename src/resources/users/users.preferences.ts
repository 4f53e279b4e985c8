/**
 * `PUT /user/preferences` (GitLab 13.10+) and `GET /user_counts`: the signed-in user's preferences
 * (`view_diffs_file_by_file`, as `Entities::UserPreferences`) and the count of open merge requests
 * assigned to them. gitlab: lib/api/users.rb (`put "preferences"`), lib/api/entities/user_preferences.rb,
 * app/services/user_preferences/update_service.rb, lib/api/user_counts.rb, app/models/user.rb
 * (`assigned_open_merge_requests_count`) (13.12).
 * @module
 */
import { unauthorized } from '../../core/errors.js'
import { p } from '../../core/params.js'
import { ok } from '../../core/respond.js'
import { route, type Route } from '../../core/route.js'
import { assignedOpenMergeRequestsCount } from '../merge-requests/merge-requests.public.js'
import type { UserPreferenceRecord } from './users.tables.js'

/** `Entities::UserPreferences` (13.12): `id`, `user_id`, `view_diffs_file_by_file`. */
function UserPreferences(preference: UserPreferenceRecord) {
  return { id: preference.id, user_id: preference.user_id, view_diffs_file_by_file: preference.view_diffs_file_by_file }
}

/** The preferences and counts routes. */
export const userPreferenceRoutes: Route[] = [
  route('PUT /user/preferences', {
    params: { view_diffs_file_by_file: p.boolean({ required: true }) },
    handler(ctx) {
      const user = ctx.currentUser!
      const table = ctx.db.tables.user_preferences
      const existing = table.where('user_id', user.id)[0]
      const saved = existing
        ? table.update(existing.id, { view_diffs_file_by_file: ctx.params.view_diffs_file_by_file })
        : table.insert({ user_id: user.id, view_diffs_file_by_file: ctx.params.view_diffs_file_by_file })
      return ok(UserPreferences(saved))
    },
  }),

  // gitlab: lib/api/user_counts.rb: `unauthorized! unless current_user`; 13.12 answers the one count.
  route('GET /user_counts', {
    auth: 'optional',
    handler(ctx) {
      const user = ctx.currentUser
      if (!user) throw unauthorized()
      return ok({ merge_requests: assignedOpenMergeRequestsCount({ db: ctx.db, currentUser: user, today: ctx.today }) })
    },
  }),
]
