/**
 * GitLab's emoji names as fakelab knows them (src/rules/emoji.ts): emojione
 * shortcodes from emojibase-data's JoyPixels set, aliases normalised to their name.
 * gitlab: lib/gitlab/emoji.rb (`emojis_names`, `normalize_emoji_name`).
 */
import { describe, expect, it } from 'vitest'
import { isEmojiName, normalizeEmojiName } from '../../src/rules/emoji.js'

describe('emoji names', () => {
  it.each(['thumbsup', 'thumbsdown', '8ball', 'tada', 'heart', 'smile', 'rocket', 'thumbsup_tone1', 'slight_smile'])('knows %s', (name) => {
    expect(isEmojiName(name)).toBe(true)
  })

  it.each([
    ['+1', 'thumbsup'],
    ['-1', 'thumbsdown'],
    ['thumbup', 'thumbsup'],
    ['thumbsup', 'thumbsup'],
    ['no_such_emoji', 'no_such_emoji'],
  ])('normalises %s to %s', (alias, name) => {
    expect(normalizeEmojiName(alias)).toBe(name)
  })

  it.each(['', 'Thumbsup', ':thumbsup:', '+1', 'no_such_emoji'])('refuses %j as a name (aliases only count once normalised)', (name) => {
    expect(isEmojiName(name)).toBe(false)
  })
})
