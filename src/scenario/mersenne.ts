/**
 * faker's default random number generator (`generateMersenne53Randomizer`: MT19937, 53-bit
 * doubles), the same numbers from the same seeds, on an `Int32Array` state. faker keeps the state in
 * a plain array of doubles, which makes each of the scenario loader's seeds cost tens of
 * microseconds: a 2,000-project scenario seeds 6,000 times and draws millions of numbers (issue 13).
 * Source: M. Matsumoto and T. Nishimura, `mt19937ar.c` (`init_genrand`, `init_by_array`,
 * `genrand_int32`, `genrand_res53`), as `@faker-js/faker` 10 implements them.
 * @module
 */
import type { Randomizer } from '@faker-js/faker'

const N = 624
const M = 397
const MATRIX_A = 0x9908b0df
const UPPER_MASK = 0x80000000
const LOWER_MASK = 0x7fffffff

/** `init_genrand(s)` into `mt`. */
function initGenrand(mt: Int32Array, s: number): void {
  mt[0] = s
  for (let i = 1; i < N; i++) {
    const prev = mt[i - 1]!
    mt[i] = Math.imul(1_812_433_253, prev ^ (prev >>> 30)) + i
  }
}

/** `init_genrand(19650218)`, where every `init_by_array` starts: made once, copied per seed. */
const BY_ARRAY_START = new Int32Array(N)
initGenrand(BY_ARRAY_START, 19_650_218)

/** `init_by_array(key)` into `mt`. */
function initByArray(mt: Int32Array, key: readonly number[]): void {
  mt.set(BY_ARRAY_START)
  let i = 1
  let j = 0
  for (let k = Math.max(N, key.length); k !== 0; k--) {
    const prev = mt[i - 1]!
    // As faker: the sum is truncated, then (as every stored value) taken modulo 2^32.
    mt[i] = Math.trunc((mt[i]! ^ Math.imul(prev ^ (prev >>> 30), 1_664_525)) + key[j]! + j)
    i++
    j++
    if (i >= N) {
      mt[0] = mt[N - 1]!
      i = 1
    }
    if (j >= key.length) j = 0
  }
  for (let k = N - 1; k !== 0; k--) {
    const prev = mt[i - 1]!
    mt[i] = (mt[i]! ^ Math.imul(prev ^ (prev >>> 30), 1_566_083_941)) - i
    i++
    if (i >= N) {
      mt[0] = mt[N - 1]!
      i = 1
    }
  }
  mt[0] = 0x80000000
}

/** Generates the next 624 words in place. */
function twist(mt: Int32Array): void {
  let k = 0
  for (; k < N - M; k++) {
    const y = (mt[k]! & UPPER_MASK) | (mt[k + 1]! & LOWER_MASK)
    mt[k] = mt[k + M]! ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0)
  }
  for (; k < N - 1; k++) {
    const y = (mt[k]! & UPPER_MASK) | (mt[k + 1]! & LOWER_MASK)
    mt[k] = mt[k + M - N]! ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0)
  }
  const y = (mt[N - 1]! & UPPER_MASK) | (mt[0]! & LOWER_MASK)
  mt[N - 1] = mt[M - 1]! ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0)
}

/**
 * A {@link Randomizer} giving exactly what faker's default one gives for the same seeds: `next()`
 * is `genrand_res53`, in [0, 1); `seed(n)` is `init_genrand(n)`, `seed([a, b, …])` `init_by_array`.
 * Unseeded, it starts from seed 0 (faker's starts from a random seed; the loader always seeds).
 * Its methods are closures, not `this`-bound: faker's distributors call `next` detached.
 */
export function mersenne53(): Randomizer {
  const mt = new Int32Array(N)
  let index = 0
  /** `genrand_int32`, as a signed 32-bit value (callers shift it unsigned). */
  const nextU32 = (): number => {
    if (index >= N) {
      twist(mt)
      index = 0
    }
    let y = mt[index++]!
    y ^= y >>> 11
    y ^= (y << 7) & 0x9d2c5680
    y ^= (y << 15) & 0xefc60000
    y ^= y >>> 18
    return y
  }
  const randomizer: Randomizer = {
    next() {
      const a = nextU32() >>> 5
      const b = nextU32() >>> 6
      return (a * 67_108_864 + b) * (1 / 9_007_199_254_740_992)
    },
    seed(seed) {
      if (typeof seed === 'number') initGenrand(mt, seed)
      else initByArray(mt, seed)
      twist(mt)
      index = 0
    },
  }
  randomizer.seed(0)
  return randomizer
}
