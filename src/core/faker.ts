/**
 * A seeded English faker without the package root's import cost.
 * `@faker-js/faker`'s root loads every locale (about 270 ms and 36 MB on a cold start); its
 * `locale/en` subpath loads one, and exports only a ready instance. Its constructor, given that
 * instance's merged definitions, makes an instance whose output is identical to
 * `new Faker({ locale: [en, base], seed })`. Source: STYLE.md §10 ("Mind faker's import cost").
 * @module
 */
import type { Faker, LocaleDefinition } from '@faker-js/faker'
import { faker as english } from '@faker-js/faker/locale/en'

type FakerConstructor = new (options: { locale: LocaleDefinition; seed?: number }) => Faker

/**
 * A new English `Faker` of its own (never the shared instance), seeded with `seed`.
 * @param seed any integer; the same seed gives the same values.
 */
export function createFaker(seed: number): Faker {
  const EnglishFaker = english.constructor as FakerConstructor
  return new EnglishFaker({ locale: english.rawDefinitions, seed })
}
