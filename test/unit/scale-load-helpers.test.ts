// The scenario loader's fast stand-ins for library calls (issue 13 "Scale scenario") must give
// exactly what the calls they replace give: generated issues' titles (faker's hacker phrases) and
// every timestamp the loader formats (`toISOString()`).
import { generateMersenne53Randomizer } from '@faker-js/faker'
import { describe, expect, it } from 'vitest'
import { createFaker } from '../../src/core/faker.js'
import { hackerPhrases } from '../../src/resources/issues/issues.generate.js'
import { isoTimestamp } from '../../src/scenario/iso-time.js'
import { mersenne53 } from '../../src/scenario/mersenne.js'
import { validateScenarioObject } from '../../src/simulator.js'

describe('hackerPhrases', () => {
  it('gives faker.hacker.phrase()’s strings and leaves the faker where it leaves it', () => {
    for (let seed = 0; seed < 200; seed++) {
      const theirs = createFaker(seed * 7919 + 13)
      const ours = createFaker(seed * 7919 + 13)
      const expected = Array.from({ length: 64 }, () => theirs.hacker.phrase())
      expect(hackerPhrases(ours, 64)).toEqual(expected)
      expect(ours.number.int({ max: 0xffffffff })).toBe(theirs.number.int({ max: 0xffffffff }))
    }
  })
})

describe('mersenne53', () => {
  it('draws what faker’s default randomizer draws, for number and array seeds, across many state refills', () => {
    const seeds: (number | number[])[] = [0, 1, 13, 2 ** 32 - 1, 2 ** 40 + 7, [13, 0], [1, 2 ** 32 - 1], [5, 6, 7], Array.from({ length: 700 }, (_, i) => (i * 2_654_435_761) >>> 0)]
    for (let s = 0; s < 100; s++) seeds.push([s, (s * 2_654_435_761) >>> 0])
    const wrong: unknown[] = []
    for (const seed of seeds) {
      const theirs = generateMersenne53Randomizer()
      const ours = mersenne53()
      theirs.seed(seed)
      ours.seed(seed)
      for (let i = 0; i < 2000; i++) {
        if (ours.next() !== theirs.next()) {
          wrong.push(seed)
          break
        }
      }
    }
    expect(wrong).toEqual([])
  })

  it('works detached, as faker’s distributors call it', () => {
    const { next, seed } = mersenne53()
    seed([1, 2])
    const theirs = generateMersenne53Randomizer()
    theirs.seed([1, 2])
    expect(next()).toBe(theirs.next())
  })
})

describe('isoTimestamp', () => {
  it('is toISOString() for instants from 1970 to 9999, at day, leap-year and century edges', () => {
    const edges = [0, 1, 999, 86_399_999, 86_400_000, Date.UTC(2000, 1, 29, 23, 59, 59, 999), Date.UTC(2100, 2, 1), Date.UTC(1999, 11, 31, 23, 59, 59, 999), 253_402_300_799_999]
    for (const ms of edges) expect(isoTimestamp(ms)).toBe(new Date(ms).toISOString())
    const wrong: number[] = []
    let x = 12345
    for (let i = 0; i < 200_000; i++) {
      x = (Math.imul(x, 1_103_515_245) + 12_345) >>> 0
      const ms = Math.floor((x / 2 ** 32) * 253_402_300_799_999)
      const recent = 1.5e12 + (ms % 1e11)
      for (const t of [ms, recent]) if (isoTimestamp(t) !== new Date(t).toISOString()) wrong.push(t)
    }
    expect(wrong).toEqual([])
  })

  it('hands other instants to Date: before 1970, past 9999, fractions; an invalid one throws as toISOString() does', () => {
    for (const ms of [-1, -86_400_001, Date.UTC(-5, 0, 1), 253_402_300_800_000, 8.64e15, 1.5e12 + 0.5]) expect(isoTimestamp(ms)).toBe(new Date(ms).toISOString())
    expect(() => isoTimestamp(Number.NaN)).toThrow(RangeError)
    expect(() => isoTimestamp(8.64e15 + 1)).toThrow(RangeError)
  })
})

describe('scenario timestamps', () => {
  it('are normalised exactly as new Date(text).toISOString(), whether written in normal form or not', () => {
    const written = ['2021-04-01T12:00:00Z', '2021-04-01T12:00:00.000Z', '2021-04-01T14:00:00+02:00', '2021-04-01T12:00+0000', '2021-04-01', '2021-02-30T00:00:00.000Z', '2020-02-29 23:59:59.9999Z', '1969-12-31T23:59:59.999Z']
    for (const text of written) {
      const scenario = validateScenarioObject({ version: 1, now: text })
      expect(scenario.now, text).toBe(new Date(text.length === 10 ? `${text}T00:00:00Z` : text).toISOString())
    }
  })

  it('are refused when Date cannot read them, even right after one it could', () => {
    validateScenarioObject({ version: 1, now: '2021-04-01T12:00:00Z' })
    expect(() => validateScenarioObject({ version: 1, now: '2021-13-01T12:00:00Z' })).toThrow('now: must be an ISO 8601 timestamp')
  })
})
