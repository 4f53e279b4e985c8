/**
 * The two answer shapes of CI lint in 13.12: the instance-wide route's hash and the project routes'
 * `Entities::Ci::Lint::Result`. gitlab: lib/api/lint.rb, lib/api/entities/ci/lint/result.rb.
 * @module
 */
import type { CiLintResult } from '../runners/runners.public.js'

/**
 * `POST /ci/lint`: `status` (`valid`/`invalid`), `errors`, `warnings`, and `merged_yaml` only when
 * `include_merged_yaml` is asked.
 */
export function InstanceLint(result: CiLintResult, includeMergedYaml: boolean) {
  const body: { status: string; errors: string[]; warnings: string[]; merged_yaml?: string | null } = {
    status: result.valid ? 'valid' : 'invalid',
    errors: [...result.errors],
    warnings: [...result.warnings],
  }
  if (includeMergedYaml) body.merged_yaml = result.mergedYaml
  return body
}

/** `Entities::Ci::Lint::Result` (13.12): valid, errors, warnings, merged_yaml. */
export function LintResult(result: CiLintResult) {
  return {
    valid: result.valid,
    errors: [...result.errors],
    warnings: [...result.warnings],
    merged_yaml: result.mergedYaml,
  }
}
