/**
 * GitLab's time tracking durations, both ways, on GitLab's own examples (gitlab-behaviour.md §5;
 * gitlabhq:spec/lib/gitlab/time_tracking_formatter_spec.rb, chronic_duration's README).
 */
import { describe, expect, it } from 'vitest'
import { humanTimeDuration } from '../../src/entities/issuable.js'
import { parseDuration } from '../../src/resources/issues/duration.js'

describe('parseDuration', () => {
  it.each([
    ['1h 30m', 5400],
    ['1h30m', 5400],
    ['1 hour 30 minutes', 5400],
    ['3w 1d', 460_800],
    ['1w 2d', 201_600],
    ['1mo', 576_000],
    ['1d', 28_800],
    ['30m', 1800],
    ['3h 30m', 12_600],
    ['-30m', -1800],
    ['-1h', -3600],
    ['2', 7200], // a bare number is hours
    ['1.5h', 5400],
    ['1H 30M', 5400], // lower-cased first
    ['1h foo', 3600], // unknown words ignored
    ['1h and 30m', 5400],
    ['2:30', 150], // read right to left from seconds
    ['1:00:00', 3600],
    ['hour', 3600], // a unit alone counts once
    ['1y', 31_557_600],
    ['90s', 90],
  ])('%j is %i seconds', (input, seconds) => {
    expect(parseDuration(input)).toBe(seconds)
  })

  it.each(['foo', '', '0', '0h', '-0m'])('%j is invalid (GitLab nil)', (input) => {
    expect(parseDuration(input)).toBeNull()
  })
})

describe('humanTimeDuration', () => {
  it.each([
    [3600, '1h'],
    [5400, '1h 30m'],
    [28_800, '1d'],
    [144_000, '1w'],
    [460_800, '3w 1d'],
    [576_000, '1mo'],
    [90, '1m 30s'],
    [201_600, '1w 2d'],
    [12_600, '3h 30m'],
    [10_800, '3h'],
  ])('%i seconds print as %j', (seconds, text) => {
    expect(humanTimeDuration(seconds)).toBe(text)
  })

  it('prints 0 as null', () => {
    expect(humanTimeDuration(0)).toBeNull()
  })

  it.each(['1h 30m', '3w 1d', '1mo', '1w 2d', '2h 15m'])('round-trips %j', (text) => {
    expect(humanTimeDuration(parseDuration(text)!)).toBe(text)
  })
})
