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
    route: z.string().min(1).optional().describe('Match only requests this route answers: a route key such as "GET /projects/:id/labels".'),
    /** Upper-case method. */
    method: z.string().min(1).optional().describe('Match only this HTTP method (GET).'),
    /** A regular expression source tested against the request path. */
    path: z.string().min(1).optional().describe('Match only paths this regular expression finds ("^/api/v4/projects").'),
    /** ms, fixed or `{ min, max }`. */
    delay: z.union([z.number().nonnegative(), z.strictObject({ min: z.number().nonnegative().describe('Least delay, in ms.'), max: z.number().nonnegative().describe('Greatest delay, in ms.') })]).optional().describe('Delay before answering, in ms: a number, or { min, max } for a random whole number of ms.'),
    status: z.union([z.literal(429), z.literal(500), z.literal(502), z.literal(503)]).optional().describe('Answer 429, 500, 502 or 503 with GitLab\'s body for it instead of running the route.'),
    retryAfter: z.int().nonnegative().optional().describe('Retry-After seconds on a forced 429. Default 60.'),
    reset: z.boolean().optional().describe('Drop the connection without an answer.'),
    malformed: z.boolean().optional().describe('Send the answer with its body cut in half (invalid JSON).'),
    probability: z.number().min(0).max(1).optional().describe('Chance (0 to 1) that a matching request is affected, drawn from the seed. Default 1.'),
    times: z.int().positive().optional().describe('Affect only the next N matching requests, then retire.'),
  })
  .superRefine((rule, ctx) => {
    try {
      checkFaultRule(rule as FaultRule)
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: (error as Error).message.replace(/^fault /, '') })
    }
  })
