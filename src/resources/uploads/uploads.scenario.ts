/**
 * The uploads part of the scenario format: the top-level `max_attachment_size:` (megabytes, default
 * 10, GitLab's application setting) and `enforce_max_attachment_size_upload_api:` (default false,
 * as the feature flag is in 13.12), loaded into `upload_settings`.
 * Source: gitlab: app/models/application_setting_implementation.rb (`max_attachment_size: 10`),
 * config/feature_flags/development/enforce_max_attachment_size_upload_api.yml (13.11, default off;
 * on by default from 14.0, MR 62542), lib/api/projects.rb (`project_attachment_size`).
 * @module
 */
import { z } from 'zod'
import type { FieldsInput, FieldsOutput, ScenarioFragment } from '../../scenario/fragment.js'

const root = {
  max_attachment_size: z.int().positive().default(10).describe('GitLab\'s max_attachment_size application setting, in MB. POST /projects/:id/uploads enforces it only with enforce_max_attachment_size_upload_api. Default 10.'),
  enforce_max_attachment_size_upload_api: z.boolean().default(false).describe('The enforce_max_attachment_size_upload_api feature flag: true makes POST /projects/:id/uploads refuse a file over max_attachment_size with Workhorse\'s 413. Default false, as in GitLab 13.12 (which then allows 1 GB).'),
}

/** The top-level upload settings, as parsed. */
export type UploadSettings = FieldsOutput<typeof root>

declare module '../../scenario/records.js' {
  interface Scenario extends Partial<UploadSettings> {}
  interface ScenarioInput extends Partial<FieldsInput<typeof root>> {}
}

/** The uploads fragment (see the module comment). */
export const uploadFragment: ScenarioFragment = {
  need: { always: 'load.root inserts the upload_settings row (max_attachment_size, default 10) whatever the scenario says' },
  root,
  load: {
    root(ctx, scenario) {
      ctx.db.tables.upload_settings.insert({
        id: 1,
        max_attachment_size: (scenario.max_attachment_size as number | undefined) ?? 10,
        enforce_max_attachment_size_upload_api: scenario.enforce_max_attachment_size_upload_api === true,
      })
    },
  },
}
