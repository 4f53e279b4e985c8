/**
 * `.gitlab-ci.yml` `rules: if:` expressions (pipelines.ci-config.ts `evaluateIf`), the grammar fakelab
 * reads of GitLab's (lib/gitlab/ci/pipeline/expression/*, 13.x): `==`, `!=` against strings (either
 * quote), `null` and variables; `&&` binding tighter than `||`; parentheses; a lone variable true
 * when set and not empty; anything else (`=~`, garbage) never matches.
 */
import { describe, expect, it } from 'vitest'
import { evaluateIf } from '../../src/resources/runners/pipelines.ci-config.js'

const VARS = { CI_PIPELINE_SOURCE: 'merge_request_event', CI_MERGE_REQUEST_IID: '3', EMPTY: '' }

describe('evaluateIf', () => {
  it.each([
    ['$CI_PIPELINE_SOURCE == "merge_request_event"', true],
    ["$CI_PIPELINE_SOURCE == 'push'", false],
    ['$CI_PIPELINE_SOURCE != "push"', true],
    ['$CI_COMMIT_BRANCH == null', true],
    ['$CI_MERGE_REQUEST_IID != null', true],
    ['$CI_COMMIT_BRANCH', false],
    ['$EMPTY', false],
    ['$CI_MERGE_REQUEST_IID', true],
    ['$CI_COMMIT_BRANCH == "main" || $CI_MERGE_REQUEST_IID == "3"', true],
    ['$CI_COMMIT_BRANCH == "main" && $CI_MERGE_REQUEST_IID == "3"', false],
    // && before ||: true || (false && false).
    ['$CI_MERGE_REQUEST_IID == "3" || $CI_COMMIT_BRANCH == "main" && $EMPTY', true],
    ['($CI_MERGE_REQUEST_IID == "3" || $CI_COMMIT_BRANCH == "main") && $EMPTY', false],
    ['$CI_PIPELINE_SOURCE == $CI_PIPELINE_SOURCE', true],
    ['$CI_PIPELINE_SOURCE =~ /merge/', false],
    ['$CI_PIPELINE_SOURCE ==', false],
    ['($CI_MERGE_REQUEST_IID', false],
    ['', false],
  ])('%s → %s', (expr, expected) => {
    expect(evaluateIf(expr, VARS)).toBe(expected)
  })
})
