// The scenario loader's fast stand-ins for library calls (issue 13 "Scale scenario") must give
// exactly what the calls they replace give: generated issues' titles (faker's hacker phrases) and
// every timestamp the loader formats (`toISOString()`).
import { generateMersenne53Randomizer, type Faker, type Randomizer } from '@faker-js/faker'
import { faker as english } from '@faker-js/faker/locale/en'
import { describe, expect, it } from 'vitest'
import type { z } from 'zod'
import { createFaker } from '../../src/core/faker.js'
import { hackerPhrases } from '../../src/resources/issues/issues.generate.js'
import { isoTimestamp } from '../../src/scenario/iso-time.js'
import { mersenne53 } from '../../src/scenario/mersenne.js'
import { validateScenarioObject } from '../../src/simulator.js'
import { GIVE_UP } from '../../src/scenario/fast-records.js'
import { fastJob, jobSchema } from '../../src/resources/runners/runners.scenario.js'
import { fastTodo, todoSchema } from '../../src/resources/todos/todos.scenario.js'

describe('hackerPhrases', () => {
  it('gives faker.hacker.phrase()’s strings and leaves the faker where it leaves it', () => {
    const EnglishFaker = english.constructor as new (options: { locale: typeof english.rawDefinitions; randomizer: Randomizer }) => Faker
    for (let seed = 0; seed < 200; seed++) {
      const theirs = createFaker(seed * 7919 + 13)
      const randomizer = mersenne53()
      const ours = new EnglishFaker({ locale: english.rawDefinitions, randomizer })
      ours.seed(seed * 7919 + 13)
      const expected = Array.from({ length: 64 }, () => theirs.hacker.phrase())
      const words = ours.definitions.hacker as unknown as Record<string, string[]>
      expect(hackerPhrases(words, randomizer.next, 64)).toEqual(expected)
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

/** Absent key (a variant of a field). */
const ABSENT = Symbol('absent')

/**
 * Inputs drawn from per-field variants (absent, undefined, null, valid values, then invalid ones),
 * mostly plain ones: each is given to the fast checker and to zod. Returns the inputs for which the
 * checker answered something zod does not (other fields, order or values, or zod refuses), and how
 * many it answered.
 */
function againstZod(schema: z.ZodType, check: (input: unknown) => unknown, variants: Record<string, unknown[]>): { wrong: unknown[]; answered: number } {
  let x = 99
  const pick = <T>(list: readonly T[]): T => {
    x = (Math.imul(x, 1_103_515_245) + 12_345) >>> 0
    return list[(x >>> 16) % list.length]!
  }
  let answered = 0
  const wrong: unknown[] = []
  for (let n = 0; n < 20_000; n++) {
    const input: Record<string, unknown> = {}
    for (const [field, values] of Object.entries(variants)) {
      const value = n % 3 === 0 ? pick(values) : pick([values[0], values[1], values[3], values[4]])
      if (value !== ABSENT) input[field] = value
    }
    const ours = check(input)
    if (ours === GIVE_UP) continue
    answered++
    const theirs = schema.safeParse(input)
    const same = theirs.success && Object.keys(theirs.data as object).join() === Object.keys(ours as object).join() && JSON.stringify(Object.entries(theirs.data as object)) === JSON.stringify(Object.entries(ours as object))
    if (!same) wrong.push(input)
  }
  return { wrong, answered }
}

const TIMESTAMPS = [ABSENT, undefined, null, '2021-04-01T12:00:00Z', '2021-04-01T12:00:00.000Z', '2021-04-01', '2021-04-01T14:00:00+02:00', '2021-13-01T00:00:00Z', 'yesterday', '2021-02-30T00:00:00Z', '2021-04-01T12:00']

describe('fastJob (the runner job schema the fast way)', () => {
  const variants: Record<string, unknown[]> = {
    id: [ABSENT, undefined, null, 1, 77, 0, -3, 1.5, '7', Number.MAX_SAFE_INTEGER + 1],
    project: [ABSENT, undefined, null, 'g/p', 'acme/sub/p', 'bad path', 'x.git', '', 5],
    pipeline: [ABSENT, undefined, null, 1, 1_000_000, 0, 'a'],
    user: [ABSENT, undefined, null, 'root', '', 3],
    status: [ABSENT, undefined, null, 'success', 'failed', 'manual', 'bogus'],
    stage: [ABSENT, undefined, null, 'build', '', false],
    name: [ABSENT, undefined, null, 'job-1', 2],
    ref: [ABSENT, undefined, null, 'main', {}],
    tag: [ABSENT, undefined, null, true, false, 'true'],
    coverage: [ABSENT, undefined, null, 0, 87.5, Number.NaN, Number.POSITIVE_INFINITY, '1'],
    allow_failure: [ABSENT, undefined, null, true, 0],
    created_at: TIMESTAMPS,
    started_at: TIMESTAMPS,
    finished_at: TIMESTAMPS,
    when: [ABSENT, undefined, null, 'manual', 'on_failure', 'delayed', 3],
    trace: [ABSENT, undefined, null, '', 'log\n', 7],
    artifacts: [ABSENT, undefined, null, { 'a.txt': 'a' }, 3],
    artifacts_expire_at: TIMESTAMPS,
    extra: [ABSENT, ABSENT, ABSENT, ABSENT, 1],
  }

  it('lists the schema’s fields in the schema’s order', () => {
    const input = { pipeline: 1 }
    expect(Object.keys(fastJob(input) as object)).toEqual(Object.keys(jobSchema.parse(input)))
    expect(Object.keys(jobSchema.shape)).toEqual(Object.keys(variants).filter((k) => k !== 'extra'))
  })

  it('answers only what zod answers (same fields, order and values), and gives up on anything zod refuses', () => {
    const { wrong, answered } = againstZod(jobSchema, fastJob, variants)
    expect(wrong).toEqual([])
    expect(answered).toBeGreaterThan(1000)
  })

  it('leaves a list with one job zod refuses to zod, which reports it where it is', () => {
    const scenario = {
      version: 1,
      users: [{ username: 'root' }],
      projects: [{ path: 'p', namespace: 'root', pipelines: [{ id: 1 }] }],
      runners: [{ projects: ['root/p'], jobs: [{ pipeline: 1 }, { pipeline: 'one' }] }],
    }
    expect(() => validateScenarioObject(scenario)).toThrow('runners[0].jobs[1].pipeline')
    const valid = validateScenarioObject({ ...scenario, runners: [{ projects: ['root/p'], jobs: [{ pipeline: 1, coverage: 12.5 }] }] })
    expect((valid as { runners?: { jobs: unknown[] }[] }).runners?.[0]?.jobs).toEqual([jobSchema.parse({ pipeline: 1, coverage: 12.5 })])
  })
})

describe('fastTodo (the to-do schema the fast way)', () => {
  const variants: Record<string, unknown[]> = {
    id: [ABSENT, undefined, null, 1, 77, 0, 1.5],
    user: [ABSENT, undefined, null, 'root', 'user2', 'no way', 'x.atom', 4],
    author: [ABSENT, undefined, null, 'root', 'user_3', '-x'],
    action: [ABSENT, undefined, null, 'assigned', 'mentioned', 'bogus'],
    issue: [ABSENT, undefined, null, 1, 7, 0, '1'],
    merge_request: [ABSENT, undefined, null, 2, ABSENT, -1],
    state: [ABSENT, undefined, null, 'done', 'pending', 'gone'],
    body: [ABSENT, undefined, null, 'text', '', 1],
    created_at: TIMESTAMPS,
    updated_at: TIMESTAMPS,
    extra: [ABSENT, ABSENT, ABSENT, ABSENT, 1],
  }

  it('lists the schema’s fields in the schema’s order', () => {
    const input = { user: 'root', issue: 1 }
    expect(Object.keys(fastTodo(input) as object)).toEqual(Object.keys(todoSchema.parse(input)))
  })

  it('answers only what zod answers, one-target rule included, and gives up on anything zod refuses', () => {
    const { wrong, answered } = againstZod(todoSchema, fastTodo, variants)
    expect(wrong).toEqual([])
    expect(answered).toBeGreaterThan(1000)
    expect(fastTodo({ user: 'root', issue: 1, merge_request: 2 })).toBe(GIVE_UP)
    expect(fastTodo({ user: 'root' })).toBe(GIVE_UP)
  })
})
