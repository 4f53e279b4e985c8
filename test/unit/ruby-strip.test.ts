/** Ruby `String#strip` semantics (Ruby 2.7 docs: whitespace is `\t\n\v\f\r` and space; NUL is stripped from the end). */
import { describe, expect, it } from 'vitest'
import { rubyStrip, trimEndChar } from '../../src/core/ruby.js'

describe('rubyStrip', () => {
  it.each([
    ['  a b  ', 'a b'],
    ['\t\n\v\f\ra\r\f\v\n\t', 'a'],
    ['a\0\0', 'a'],
    ['\0a', '\0a'],
    ['\u00a0a\u3000', '\u00a0a\u3000'],
    ['   ', ''],
    ['', ''],
  ])('%j → %j', (input, output) => {
    expect(rubyStrip(input)).toBe(output)
  })
})

describe('trimEndChar', () => {
  it('removes only trailing copies of the character', () => {
    expect(trimEndChar(' a  b  ', ' ')).toBe(' a  b')
  })
})
