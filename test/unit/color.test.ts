/** Colour keywords as GitLab's label services convert them (gitlab-behaviour.md §12.4). */
import { describe, expect, it } from 'vitest'
import { isValidColor } from '../../src/entities/label.js'
import { normalizeColor } from '../../src/resources/labels/color.js'

describe('normalizeColor', () => {
  it.each([
    ['red', '#FF0000'],
    [' RebeccaPurple ', '#663399'],
    ['grey', '#808080'],
    ['#abc', '#abc'],
    ['  #FFAABB ', '#FFAABB'],
    // Issue 6 defect 3: prototype names are no keywords; they stay as given and fail validation.
    ['constructor', 'constructor'],
    ['__proto__', '__proto__'],
    ['toString', 'toString'],
    ['hasOwnProperty', 'hasOwnProperty'],
  ])('%j → %j', (input, stored) => {
    expect(normalizeColor(input)).toBe(stored)
  })

  it('leaves prototype names invalid', () => {
    expect(isValidColor(normalizeColor('constructor'))).toBe(false)
  })
})
