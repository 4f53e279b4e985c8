/**
 * `GET /user/activities`: for administrators, the users active on or after `from` (default six
 * months before today), each with the day of their last activity, in id order.
 * gitlab: lib/api/users.rb (`get "activities"`), lib/api/entities/user_activity.rb (13.12).
 * @module
 */
import { p } from '../../core/params.js'
import { paginationParams } from '../../core/pagination.js'
import { paginated } from '../../core/respond.js'
import { route, type Route } from '../../core/route.js'

/** Six months before `today` (`6.months.ago.to_date`), `YYYY-MM-DD`, the day clamped to the month's last. */
function sixMonthsBefore(today: string): string {
  const [y, m, d] = today.split('-').map(Number) as [number, number, number]
  const month = m - 6 <= 0 ? m + 6 : m - 6
  const year = m - 6 <= 0 ? y - 1 : y
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate()
  return `${year}-${String(month).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`
}

/** The user activity routes. */
export const userActivityRoutes: Route[] = [
  route('GET /user/activities', {
    auth: 'admin',
    params: { from: p.date(), ...paginationParams },
    handler(ctx) {
      const from = ctx.params.from ?? sixMonthsBefore(ctx.today)
      const rows = ctx.db.tables.users.all().filter((user) => user.last_activity_on !== null && user.last_activity_on >= from)
      // Entities::UserActivity: username, last_activity_on and its older name last_activity_at.
      return paginated(ctx, rows, (user) => ({ username: user.username, last_activity_on: user.last_activity_on, last_activity_at: user.last_activity_on }))
    },
  }),
]
