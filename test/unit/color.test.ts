/** Colour keywords as GitLab's label services convert them (gitlab-behaviour.md §12.4). */
import { describe, expect, it } from 'vitest'
import { isValidColor, textColor } from '../../src/resources/labels/label-basic.js'
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

describe('textColor', () => {
  // GitLab's `text_color_for_bg` as it reads: expand #RGB, sum the three channels, dark text above 500.
  const reference = (color: string): string => {
    const hex = isValidColor(color) ? color.slice(1) : '428BCA'
    const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex
    const sum = [0, 2, 4].reduce((acc, i) => acc + Number.parseInt(full.slice(i, i + 2), 16), 0)
    return sum > 500 ? '#333333' : '#FFFFFF'
  }
  const digits = '0123456789abcdefABCDEF'

  it('agrees with the reference on every #RGB colour, both cases', () => {
    for (const r of digits) for (const g of digits) for (const b of digits) expect(textColor(`#${r}${g}${b}`)).toBe(reference(`#${r}${g}${b}`))
  })

  it('agrees with the reference on #RRGGBB colours around the threshold and on invalid colours', () => {
    const colours = ['#A7A7A7', '#A7A7A6', '#a7a7a8', '#FFFFFF', '#000000', '#428BCA', '#fF00Ff', '#F0F', 'red', '', '#12345', '#GGGGGG', '#1234567']
    for (let sum = 480; sum <= 520; sum++) {
      const third = Math.floor(sum / 3)
      const last = sum - 2 * third
      if (last <= 255) colours.push(`#${[third, third, last].map((n) => n.toString(16).padStart(2, '0')).join('')}`)
    }
    for (const colour of colours) expect(textColor(colour)).toBe(reference(colour))
  })
})
