/**
 * Dates as GitLab's models take them. Endpoints declare date parameters such as an issue's
 * `due_date` and a milestone's `due_date`/`start_date` as `type: String` (lib/api/issues.rb,
 * lib/api/milestone_responses.rb), so Grape passes the text through and the model's `date` column
 * casts it: Rails' `ActiveModel::Type::Date#cast_value` tries `YYYY-MM-DD`, then falls back to
 * `Date._parse`, and an unparsable or impossible date becomes nil (no validation error). One rule
 * for every date column. Source: rails activemodel/lib/active_model/type/date.rb
 * (`fast_string_to_date`, `fallback_string_to_date`, `new_date`).
 * @module
 */

/**
 * A date column assignment (Rails `ActiveModel::Type::Date`): `YYYY-MM-DD` or, leniently like
 * `Date._parse`, `YYYY-M-D`, `YYYY/MM/DD`, `YYYYMMDD` (anything after the date, such as a time, is
 * ignored). Blank or unparsable input, and impossible dates such as `2021-02-30`, become null.
 * spec-gap: `Date._parse` also reads prose dates ("March 1 2021"); those become null here.
 * @param value the parameter as sent, or null.
 * @returns `YYYY-MM-DD` (a year over 9999 keeps all its digits), or null.
 */
export function castDate(value: string | null): string | null {
  if (value === null) return null
  const text = value.trim()
  const match =
    /^(\d{4,})-(\d{1,2})-(\d{1,2})(?:$|[T\s])/.exec(text) ??
    /^(\d{4,})\/(\d{1,2})\/(\d{1,2})(?:$|[T\s])/.exec(text) ??
    /^(\d{4})(\d{2})(\d{2})(?:$|T)/.exec(text)
  if (!match) return null
  const year = Number(match[1])
  const month = Number(match[2])
  const day = Number(match[3])
  if (year === 0 || month < 1 || month > 12 || day < 1) return null
  const daysInMonth = new Date(Date.UTC(2000, month, 0)).getUTCDate() // leap-year February: 29
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
  if (day > (month === 2 && !leap ? 28 : daysInMonth)) return null
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`
}
