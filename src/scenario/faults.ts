/**
 * The scenario's `faults:` key: latency and fault rules in force from the start, in the same shape
 * as `sim.faults.set()`, `createSimulator({ faults })`, `fakelab serve --fault` and
 * `PUT /-/fakelab/faults` (`FaultRule`, `src/core/faults.ts`), and checked by the same
 * `checkFaultRule`. Source: issue 12 ("Each can be set from the scenario, the CLI, the control API
 * or the library").
 * @module
 */
import { z } from 'zod'
import { checkFaultRule, type FaultRule } from '../core/faults.js'

/** One fault rule, as in `FaultRule`; `checkFaultRule`'s message becomes the problem. */
export const faultRuleSchema = z
  .strictObject({
    /** A route key (`GET /projects/:id/labels`). */
    route: z.string().min(1).optional(),
    /** Upper-case method. */
    method: z.string().min(1).optional(),
    /** A regular expression source tested against the request path. */
    path: z.string().min(1).optional(),
    /** ms, fixed or `{ min, max }`. */
    delay: z.union([z.number().nonnegative(), z.strictObject({ min: z.number().nonnegative(), max: z.number().nonnegative() })]).optional(),
    status: z.union([z.literal(429), z.literal(500), z.literal(502), z.literal(503)]).optional(),
    retryAfter: z.int().nonnegative().optional(),
    reset: z.boolean().optional(),
    malformed: z.boolean().optional(),
    probability: z.number().min(0).max(1).optional(),
    times: z.int().positive().optional(),
  })
  .superRefine((rule, ctx) => {
    try {
      checkFaultRule(rule as FaultRule)
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: (error as Error).message.replace(/^fault /, '') })
    }
  })
