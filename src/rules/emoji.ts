/**
 * GitLab's emoji: their names (award emoji, user statuses) and their `<gl-emoji>` element (the
 * Markdown and emoji pipelines' `EmojiFilter`). Shared by the areas that validate or render them;
 * loaded with the first of their route modules that needs it (the JSON tables are large).
 *
 * GitLab's emoji names. GitLab 13.x validates an award's name against `Gitlab::Emoji.emojis_names`
 * (the gemojione gem's index: emojione shortcodes such as `thumbsup`, `8ball`, `tada`,
 * `thumbsup_tone1`) after `normalize_emoji_name` has mapped an alias to its name (`+1` → `thumbsup`).
 * emojione's maintained successor is JoyPixels, whose shortcodes `emojibase-data` ships: for each
 * emoji the first shortcode is its name and the rest are aliases.
 * What differs from 13.x's list: JoyPixels knows emoji newer than gemojione 3.3 (Unicode 10 and
 * later, e.g. `star_struck`), which 13.x refused, and a few extra aliases (`thumbs_up`), which are
 * normalised to their name here.
 * Sources: gitlab: lib/gitlab/emoji.rb, app/models/award_emoji.rb, app/services/award_emojis/base_service.rb,
 * lib/banzai/filter/emoji_filter.rb, app/helpers/emoji_helper.rb (`gl_emoji_tag`).
 * @module
 */
import emojiData from 'emojibase-data/en/data.json' with { type: 'json' }
import joypixels from 'emojibase-data/en/shortcodes/joypixels.json' with { type: 'json' }

/** Alias or name → name. Built once, on first use. */
let names: Map<string, string> | undefined

function table(): Map<string, string> {
  if (names) return names
  const map = new Map<string, string>()
  for (const codes of Object.values(joypixels as Record<string, string | string[]>)) {
    const list = Array.isArray(codes) ? codes : [codes]
    const name = list[0]
    if (name === undefined) continue
    map.set(name, name)
    for (const alias of list.slice(1)) if (!map.has(alias)) map.set(alias, name)
  }
  names = map
  return map
}

/**
 * `Gitlab::Emoji.normalize_emoji_name`: the emoji's name for an alias (`+1` → `thumbsup`); any other
 * text comes back as it is.
 */
export function normalizeEmojiName(name: string): string {
  return table().get(name) ?? name
}

/** Whether `name` is one of GitLab's emoji names (after normalising, so `+1` counts). */
export function isEmojiName(name: string): boolean {
  return table().get(name) === name
}

/** Name → the emoji's character, description and Unicode version. Built once, on first use. */
let glyphs: Map<string, { char: string; title: string; unicodeVersion: string }> | undefined

/**
 * The Unicode version GitLab's emoji table gives an emoji (`data-unicode-version`), from
 * emojibase's Emoji version: Emoji 0.6 and 0.7 are Unicode 6.0 and 7.0, Emoji 1.0 and 2.0 came with
 * Unicode 8.0, 3.0 and 4.0 with 9.0, 5.0 with 10.0, later ones share their number.
 */
function unicodeVersion(emojiVersion: number): string {
  if (emojiVersion < 1) return `${Math.round(emojiVersion * 10)}.0`
  if (emojiVersion < 3) return '8.0'
  if (emojiVersion < 5) return '9.0'
  if (emojiVersion < 11) return '10.0'
  return `${Math.floor(emojiVersion)}.0`
}

function glyphTable(): Map<string, { char: string; title: string; unicodeVersion: string }> {
  if (glyphs) return glyphs
  const shortcodes = joypixels as Record<string, string | string[]>
  const map = new Map<string, { char: string; title: string; unicodeVersion: string }>()
  for (const entry of emojiData as { hexcode: string; emoji: string; label: string; version: number }[]) {
    const codes = shortcodes[entry.hexcode]
    const name = Array.isArray(codes) ? codes[0] : codes
    if (name !== undefined) map.set(name, { char: entry.emoji, title: entry.label, unicodeVersion: unicodeVersion(entry.version) })
  }
  glyphs = map
  return map
}

/**
 * `gl_emoji_tag`: `<gl-emoji title="party popper" data-name="tada" data-unicode-version="6.0">🎉</gl-emoji>`
 * for an emoji name or alias; undefined for a name GitLab does not know (the `:text:` stays).
 */
export function glEmoji(name: string): string | undefined {
  const canonical = normalizeEmojiName(name)
  const glyph = glyphTable().get(canonical)
  if (!glyph) return undefined
  return `<gl-emoji title="${glyph.title}" data-name="${canonical}" data-unicode-version="${glyph.unicodeVersion}">${glyph.char}</gl-emoji>`
}

/** `EmojiFilter`'s `:name:` pattern, global: a shortcode between colons. */
export const EMOJI_SHORTCODE = /:([a-z0-9_+-]+):/g
