/**
 * Time zones as GitLab 13.x validates them for a deploy freeze period's `cron_timezone`: what
 * fugit 1.2 accepts in `"* * * * * #{zone}"` after GitLab maps an ActiveSupport zone name
 * (`"Eastern Time (US & Canada)"`) to its TZInfo identifier (gitlabhq:lib/gitlab/ci/cron_parser.rb).
 *
 * Known differences from GitLab (all rare):
 * - Zones come from the runtime's ICU database (`Intl`), not the server's TZInfo data: a zone added
 *   to tzdata after 2021 (`Europe/Kyiv`) is accepted here. A link (`US/Pacific`) is checked for
 *   existence but not for letter case (`US/PACIFIC` passes here, not in GitLab).
 * - et-orbi's extra spellings (Windows zone names, `PST-8`-style abbreviations) are not accepted.
 * @module
 */

// gitlab: ActiveSupport::TimeZone::MAPPING (Rails 6.x), which CronParser#timezone_name applies
// before parsing, so GitLab also accepts these friendly names.
const ACTIVE_SUPPORT_ZONES: ReadonlyMap<string, string> = new Map(Object.entries({
  'International Date Line West': 'Etc/GMT+12',
  'Midway Island': 'Pacific/Midway',
  'American Samoa': 'Pacific/Pago_Pago',
  Hawaii: 'Pacific/Honolulu',
  Alaska: 'America/Juneau',
  'Pacific Time (US & Canada)': 'America/Los_Angeles',
  Tijuana: 'America/Tijuana',
  'Mountain Time (US & Canada)': 'America/Denver',
  Arizona: 'America/Phoenix',
  Chihuahua: 'America/Chihuahua',
  Mazatlan: 'America/Mazatlan',
  'Central Time (US & Canada)': 'America/Chicago',
  Saskatchewan: 'America/Regina',
  Guadalajara: 'America/Mexico_City',
  'Mexico City': 'America/Mexico_City',
  Monterrey: 'America/Monterrey',
  'Central America': 'America/Guatemala',
  'Eastern Time (US & Canada)': 'America/New_York',
  'Indiana (East)': 'America/Indiana/Indianapolis',
  Bogota: 'America/Bogota',
  Lima: 'America/Lima',
  Quito: 'America/Lima',
  'Atlantic Time (Canada)': 'America/Halifax',
  Caracas: 'America/Caracas',
  'La Paz': 'America/La_Paz',
  Santiago: 'America/Santiago',
  Newfoundland: 'America/St_Johns',
  Brasilia: 'America/Sao_Paulo',
  'Buenos Aires': 'America/Argentina/Buenos_Aires',
  Montevideo: 'America/Montevideo',
  Georgetown: 'America/Guyana',
  'Puerto Rico': 'America/Puerto_Rico',
  Greenland: 'America/Godthab',
  'Mid-Atlantic': 'Atlantic/South_Georgia',
  Azores: 'Atlantic/Azores',
  'Cape Verde Is.': 'Atlantic/Cape_Verde',
  Dublin: 'Europe/Dublin',
  Edinburgh: 'Europe/London',
  Lisbon: 'Europe/Lisbon',
  London: 'Europe/London',
  Casablanca: 'Africa/Casablanca',
  Monrovia: 'Africa/Monrovia',
  UTC: 'Etc/UTC',
  Belgrade: 'Europe/Belgrade',
  Bratislava: 'Europe/Bratislava',
  Budapest: 'Europe/Budapest',
  Ljubljana: 'Europe/Ljubljana',
  Prague: 'Europe/Prague',
  Sarajevo: 'Europe/Sarajevo',
  Skopje: 'Europe/Skopje',
  Warsaw: 'Europe/Warsaw',
  Zagreb: 'Europe/Zagreb',
  Brussels: 'Europe/Brussels',
  Copenhagen: 'Europe/Copenhagen',
  Madrid: 'Europe/Madrid',
  Paris: 'Europe/Paris',
  Amsterdam: 'Europe/Amsterdam',
  Berlin: 'Europe/Berlin',
  Bern: 'Europe/Zurich',
  Zurich: 'Europe/Zurich',
  Rome: 'Europe/Rome',
  Stockholm: 'Europe/Stockholm',
  Vienna: 'Europe/Vienna',
  'West Central Africa': 'Africa/Algiers',
  Bucharest: 'Europe/Bucharest',
  Cairo: 'Africa/Cairo',
  Helsinki: 'Europe/Helsinki',
  Kyiv: 'Europe/Kiev',
  Riga: 'Europe/Riga',
  Sofia: 'Europe/Sofia',
  Tallinn: 'Europe/Tallinn',
  Vilnius: 'Europe/Vilnius',
  Athens: 'Europe/Athens',
  Istanbul: 'Europe/Istanbul',
  Minsk: 'Europe/Minsk',
  Jerusalem: 'Asia/Jerusalem',
  Harare: 'Africa/Harare',
  Pretoria: 'Africa/Johannesburg',
  Kaliningrad: 'Europe/Kaliningrad',
  Moscow: 'Europe/Moscow',
  'St. Petersburg': 'Europe/Moscow',
  Volgograd: 'Europe/Volgograd',
  Samara: 'Europe/Samara',
  Kuwait: 'Asia/Kuwait',
  Riyadh: 'Asia/Riyadh',
  Nairobi: 'Africa/Nairobi',
  Baghdad: 'Asia/Baghdad',
  Tehran: 'Asia/Tehran',
  'Abu Dhabi': 'Asia/Muscat',
  Muscat: 'Asia/Muscat',
  Baku: 'Asia/Baku',
  Tbilisi: 'Asia/Tbilisi',
  Yerevan: 'Asia/Yerevan',
  Kabul: 'Asia/Kabul',
  Ekaterinburg: 'Asia/Yekaterinburg',
  Islamabad: 'Asia/Karachi',
  Karachi: 'Asia/Karachi',
  Tashkent: 'Asia/Tashkent',
  Chennai: 'Asia/Kolkata',
  Kolkata: 'Asia/Kolkata',
  Mumbai: 'Asia/Kolkata',
  'New Delhi': 'Asia/Kolkata',
  Kathmandu: 'Asia/Kathmandu',
  Astana: 'Asia/Dhaka',
  Dhaka: 'Asia/Dhaka',
  'Sri Jayawardenepura': 'Asia/Colombo',
  Almaty: 'Asia/Almaty',
  Novosibirsk: 'Asia/Novosibirsk',
  Rangoon: 'Asia/Rangoon',
  Bangkok: 'Asia/Bangkok',
  Hanoi: 'Asia/Bangkok',
  Jakarta: 'Asia/Jakarta',
  Krasnoyarsk: 'Asia/Krasnoyarsk',
  Beijing: 'Asia/Shanghai',
  Chongqing: 'Asia/Chongqing',
  'Hong Kong': 'Asia/Hong_Kong',
  Urumqi: 'Asia/Urumqi',
  'Kuala Lumpur': 'Asia/Kuala_Lumpur',
  Singapore: 'Asia/Singapore',
  Taipei: 'Asia/Taipei',
  Perth: 'Australia/Perth',
  Irkutsk: 'Asia/Irkutsk',
  Ulaanbaatar: 'Asia/Ulaanbaatar',
  Seoul: 'Asia/Seoul',
  Osaka: 'Asia/Tokyo',
  Sapporo: 'Asia/Tokyo',
  Tokyo: 'Asia/Tokyo',
  Yakutsk: 'Asia/Yakutsk',
  Darwin: 'Australia/Darwin',
  Adelaide: 'Australia/Adelaide',
  Canberra: 'Australia/Melbourne',
  Melbourne: 'Australia/Melbourne',
  Sydney: 'Australia/Sydney',
  Brisbane: 'Australia/Brisbane',
  Hobart: 'Australia/Hobart',
  Vladivostok: 'Asia/Vladivostok',
  Guam: 'Pacific/Guam',
  'Port Moresby': 'Pacific/Port_Moresby',
  Magadan: 'Asia/Magadan',
  Srednekolymsk: 'Asia/Srednekolymsk',
  'Solomon Is.': 'Pacific/Guadalcanal',
  'New Caledonia': 'Pacific/Noumea',
  Fiji: 'Pacific/Fiji',
  Kamchatka: 'Asia/Kamchatka',
  'Marshall Is.': 'Pacific/Majuro',
  Auckland: 'Pacific/Auckland',
  Wellington: 'Pacific/Auckland',
  "Nuku'alofa": 'Pacific/Tongatapu',
  'Tokelau Is.': 'Pacific/Fakaofo',
  'Chatham Is.': 'Pacific/Chatham',
  Samoa: 'Pacific/Apia',
}))

// gitlab: fugit 1.2 Fugit::Cron::Parser#_tz_name / #_tz_delta.
const TZ_NAME = /^[A-Z][a-zA-Z0-9+-]+(?:\/[A-Z][a-zA-Z0-9+\-_]+){0,2}$/
// et-orbi keeps a fixed offset only up to ±11 hours (`get_offset_tzone`).
const TZ_OFFSET = /^[-+](?:0\d|1[01]):?(?:00|15|30|45)$/

/** Legacy ICU ids that `Intl` accepts but the IANA database (TZInfo) does not know. */
const ICU_ONLY = new Set([
  'ACT', 'AET', 'AGT', 'ART', 'AST', 'BET', 'BST', 'CAT', 'CNT', 'CST', 'CTT', 'EAT', 'ECT', 'IET',
  'IST', 'JST', 'MIT', 'NET', 'NST', 'PLT', 'PNT', 'PRT', 'PST', 'SST', 'VST',
])

/**
 * The default zone, under the names a freeze period or schedule gets it (`UTC`, and `Etc/UTC` for
 * ActiveSupport's `UTC`): every tz database has them, so they need no look-up in ICU, whose first
 * `Intl.DateTimeFormat` maps about 6 MB of its locale data into the process (issue 39 item 5).
 */
const UTC_NAMES: ReadonlySet<string> = new Set(['UTC', 'Etc/UTC'])

/** Whether `Intl` knows the IANA zone, in exactly this spelling (TZInfo lookups are case-sensitive). */
function isIanaZone(name: string): boolean {
  if (UTC_NAMES.has(name)) return true
  if (ICU_ONLY.has(name) || name.startsWith('SystemV/')) return false
  let resolved: string
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone
  } catch {
    return false
  }
  // Intl matches case-insensitively; a differing spelling of the same id was a case mismatch.
  return resolved === name || resolved.toLowerCase() !== name.toLowerCase()
}

/**
 * Whether GitLab 13.x accepts `zone` as a freeze period `cron_timezone`
 * (`CronFreezePeriodTimezoneValidator`): an IANA identifier (`Europe/Berlin`, `UTC`, `Etc/GMT+5`,
 * case-sensitive), an ActiveSupport name (`Berlin`, `Eastern Time (US & Canada)`), or a fixed offset
 * `±HH:MM` / `±HHMM` up to ±11:45 in quarter hours. Leading spaces are tolerated (GitLab appends the
 * zone to `"* * * * * "` and does not strip it); trailing whitespace is not.
 * @param zone the value as stored.
 * @returns true when GitLab would store it.
 */
export function isValidCronTimezone(zone: string): boolean {
  const name = (ACTIVE_SUPPORT_ZONES.get(zone) ?? zone).replace(/^ +/, '')
  if (TZ_OFFSET.test(name)) return true
  return TZ_NAME.test(name) && isIanaZone(name)
}

/**
 * The zone a valid `cron_timezone` names, as an IANA identifier (an ActiveSupport name mapped,
 * leading spaces dropped) or a fixed offset written `UTC+05:30` (what date libraries read).
 * @param zone a value {@link isValidCronTimezone} accepts.
 */
export function cronZoneName(zone: string): string {
  const name = (ACTIVE_SUPPORT_ZONES.get(zone) ?? zone).replace(/^ +/, '')
  if (!TZ_OFFSET.test(name)) return name
  const digits = name.slice(1).replace(':', '')
  return `UTC${name[0]}${digits.slice(0, 2)}:${digits.slice(2)}`
}
