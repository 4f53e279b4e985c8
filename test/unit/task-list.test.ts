/**
 * Task list items as GitLab 13.x's `Taskable::ITEM_PATTERN` finds them with Ruby's `scan`. Expected
 * values were checked against that regular expression in Ruby (Onigmo), where `^` starts every
 * line and `\s` also matches line breaks.
 */
import { describe, expect, it } from 'vitest'
import { taskCompletion } from '../../src/rules/task-list.js'

describe('taskCompletion', () => {
  it.each([
    ['- [ ] a\n- [x] b\n* [X] c\n+ [ ] d', 4, 2],
    ['1. [ ] x\n22. [x] y', 2, 1],
    ['> - [x] quoted\n>> * [ ] twice', 2, 1],
    ['>      - [ ] five spaces after > still work', 1, 0],
    ['- - [x] nested bullets', 1, 1],
    ['-\n[ ] a (the prefix runs over a line break)', 1, 0],
    ['- [\n] x (a line break is an empty checkbox)', 1, 0],
    ['- [ ]\nx (the space before the text may be a line break)', 1, 0],
    ['- [ ]\n\nx', 0, 0],
    ['- [ ]', 0, 0],
    ['[ ] no list marker', 0, 0],
    [' > - [ ] blockquote after a space', 0, 0],
    ['5 - [ ] digits need a dot', 0, 0],
    ['text - [ ] not at a line start', 0, 0],
    ['- [x]done (no whitespace after the box)', 0, 0],
    ['- [ ] a\r\n- [x] b\r\n', 2, 1],
  ])('%j has %i items, %i completed', (description, count, completed) => {
    expect(taskCompletion(description)).toEqual({ count, completed_count: completed })
  })

  it('counts nothing for a missing description', () => {
    expect(taskCompletion(null)).toEqual({ count: 0, completed_count: 0 })
  })
})
