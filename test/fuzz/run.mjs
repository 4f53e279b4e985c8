#!/usr/bin/env node
// `npm run fuzz [-- --long] [--runs N] [--seed S] [--text-max N] [--door node|msw]`: the route fuzz
// test (test/fuzz) with its sizes set. Without --long it is the bounded run CI does (60 requests per
// route and door); --long is 1000 requests per route and door with long texts and unbounded shrinking.
import { spawnSync } from 'node:child_process'
import { parseArgs } from 'node:util'

const { values } = parseArgs({
  options: { long: { type: 'boolean', default: false }, runs: { type: 'string' }, seed: { type: 'string' }, 'text-max': { type: 'string' }, door: { type: 'string' } },
})
const env = { ...process.env }
if (values.long) env.FUZZ_LONG = '1'
if (values.runs) env.FUZZ_RUNS = values.runs
if (values.seed) env.FUZZ_SEED = values.seed
if (values['text-max']) env.FUZZ_TEXT_MAX = values['text-max']
if (values.door) env.CONTRACT_TRANSPORT = values.door
const args = ['vitest', 'run', 'test/fuzz', ...(values.long ? ['--testTimeout=0', '--hookTimeout=0'] : [])]
const result = spawnSync('npx', args, { stdio: 'inherit', env })
process.exit(result.status ?? 1)
