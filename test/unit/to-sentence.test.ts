/** `toSentence` (core/ruby.ts), Rails' `Array#to_sentence` with English defaults. */
import { describe, expect, it } from 'vitest'
import { toSentence } from '../../src/core/ruby.js'

describe('toSentence', () => {
  it.each([
    [[], ''],
    [['a'], 'a'],
    [['a', 'b'], 'a and b'],
    [['a', 'b', 'c'], 'a, b, and c'],
    [['a', 'b', 'c', 'd'], 'a, b, c, and d'],
  ])('%j → %j', (words, sentence) => {
    expect(toSentence(words)).toBe(sentence)
  })
})
