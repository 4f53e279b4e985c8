/**
 * GitLab's emoji names. GitLab 13.x validates an award's name against `Gitlab::Emoji.emojis_names`
 * (the gemojione gem's index: emojione shortcodes such as `thumbsup`, `8ball`, `tada`,
 * `thumbsup_tone1`) after `normalize_emoji_name` has mapped an alias to its name (`+1` → `thumbsup`).
 * emojione's maintained successor is JoyPixels, whose shortcodes `emojibase-data` ships: for each
 * emoji the first shortcode is its name and the rest are aliases.
 * What differs from 13.x's list: JoyPixels knows emoji newer than gemojione 3.3 (Unicode 10 and
 * later, e.g. `star_struck`), which 13.x refused, and a few extra aliases (`thumbs_up`), which are
 * normalised to their name here.
 * Sources: gitlab: lib/gitlab/emoji.rb, app/models/award_emoji.rb, app/services/award_emojis/base_service.rb.
 * @module
 */
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
