/**
 * The packages part of the scenario format: `packages:` of projects (generic packages by default,
 * with their files' text), loaded into `packages` and `package_files`.
 * Source: issue 36 item 6; gitlab: app/models/packages/package.rb.
 * @module
 */
import { z } from 'zod'
import type { FieldsInput, FieldsOutput, ScenarioFragment } from '../../scenario/fragment.js'
import { idSchema, timestampSchema } from '../../scenario/scalars.js'
import { packageFileFields } from './packages.service.js'
import { PACKAGE_TYPES, type PackageRecord } from './packages.tables.js'

const packageFileSchema = z.strictObject({
  file_name: z.string().min(1).describe('The file name ("hello.tar.gz").'),
  content: z.string().default('').describe('The file\'s content, as UTF-8 text. Default empty.'),
})

const packageSchema = z.strictObject({
  id: idSchema.optional().describe('Record id; the next free one when absent.'),
  name: z.string().min(1).describe('Package name ("hello-world").'),
  version: z.string().min(1).nullable().describe('Its version ("1.0.0"); null for a versionless package.'),
  package_type: z.enum(PACKAGE_TYPES).default('generic').describe('maven, npm, conan, nuget, pypi, composer, generic (default), golang, debian or rubygems.'),
  status: z.enum(['default', 'hidden']).default('default').describe('default, or hidden. Default default.'),
  files: z.array(packageFileSchema).default([]).describe('Its files, in upload order (GET /projects/:id/packages/:package_id/package_files).'),
  created_at: timestampSchema.optional().describe('An ISO 8601 instant (2021-04-01T12:00:00Z); faker when absent.'),
  updated_at: timestampSchema.optional().describe('An ISO 8601 instant; created_at when absent.'),
})

const fields = { packages: z.array(packageSchema).default([]).describe('Packages of the project\'s package registry (GET /projects/:id/packages).') }

/** The `packages` field of projects, as parsed. */
export type PackageFields = FieldsOutput<typeof fields>

declare module '../../scenario/records.js' {
  interface ScenarioProject extends PackageFields {}
  interface ScenarioProjectInput extends FieldsInput<typeof fields> {}
}

const UTF8 = new TextEncoder()

/** The packages fragment (see the module comment). */
export const packageFragment: ScenarioFragment = {
  fields: { project: fields },
  collections: [{ table: 'packages', field: 'packages', on: ['project'] }],
  load: {
    project(ctx, project, parent) {
      project.packages.forEach((pkg, i) => {
        const f = ctx.fake(`package:${parent.key}:${i}`)
        const times = ctx.timestamps(f, pkg, parent.createdAt)
        const record: PackageRecord = { id: ctx.idOf(pkg), project_id: parent.id, name: pkg.name, version: pkg.version, package_type: pkg.package_type, status: pkg.status, ...times }
        ctx.stage('packages', record)
        for (const file of pkg.files) {
          const id = ctx.stagedRows('package_files').reduce((max, r) => Math.max(max, r.id), 0) + 1
          ctx.stage('package_files', { id, package_id: record.id, ...packageFileFields(file.file_name, UTF8.encode(file.content)), created_at: times.created_at, updated_at: times.created_at })
        }
      })
    },
  },
}
