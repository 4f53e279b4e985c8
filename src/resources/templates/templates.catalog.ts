/**
 * The templates fakelab serves, by kind, in GitLab's list order (`Gitlab::Template::BaseTemplate.all`:
 * category by category, each sorted by name; licenses sorted by key, as `Licensee::License.all`),
 * and the license placeholders GitLab fills (`LicenseTemplate#resolve!`).
 * gitlab: lib/gitlab/template/gitlab_ci_yml_template.rb, gitignore_template.rb,
 * dockerfile_template.rb, app/models/license_template.rb, app/finders/license_template_finder.rb (13.12).
 * @module
 */
import { CI_GENERAL, CI_PAGES, DOCKERFILES, GITIGNORES, LICENSE_TEXTS } from './templates.data.js'

/** A named template (a `.gitlab-ci.yml`, `.gitignore` or Dockerfile). */
export interface NamedTemplate {
  readonly name: string
  readonly content: string
}

/** The kinds of named templates, as the API's path names them. */
export type TemplateKind = 'gitignores' | 'gitlab_ci_ymls' | 'dockerfiles'

const named = (list: readonly (readonly [string, string])[]): NamedTemplate[] => list.map(([name, content]) => ({ name, content }))

/** The named templates of each kind, in list order. */
export const TEMPLATES: Readonly<Record<TemplateKind, readonly NamedTemplate[]>> = {
  gitlab_ci_ymls: [...named(CI_GENERAL), ...named(CI_PAGES)],
  gitignores: named(GITIGNORES),
  dockerfiles: named(DOCKERFILES),
}

/** A license template: choosealicense.com's metadata and text. */
export interface LicenseTemplate {
  readonly key: string
  readonly name: string
  readonly nickname: string | null
  /** Featured on choosealicense.com (GitLab's `Popular` category). */
  readonly popular: boolean
  readonly source: string
  readonly description: string
  readonly conditions: readonly string[]
  readonly permissions: readonly string[]
  readonly limitations: readonly string[]
  readonly content: string
}

const PERMISSIVE = ['commercial-use', 'modifications', 'distribution', 'private-use']
const PATENTS = ['commercial-use', 'modifications', 'distribution', 'patent-use', 'private-use']

/** The license templates, sorted by key. */
export const LICENSES: readonly LicenseTemplate[] = [
  {
    key: 'apache-2.0',
    name: 'Apache License 2.0',
    nickname: null,
    popular: true,
    source: 'https://spdx.org/licenses/Apache-2.0.html',
    description: 'A permissive license whose main conditions require preservation of copyright and license notices. Contributors provide an express grant of patent rights. Licensed works, modifications, and larger works may be distributed under different terms and without source code.',
    conditions: ['include-copyright', 'document-changes'],
    permissions: PATENTS,
    limitations: ['trademark-use', 'liability', 'warranty'],
    content: LICENSE_TEXTS['apache-2.0']!,
  },
  {
    key: 'bsd-2-clause',
    name: 'BSD 2-Clause "Simplified" License',
    nickname: null,
    popular: false,
    source: 'https://spdx.org/licenses/BSD-2-Clause.html',
    description: 'A permissive license that comes in two variants, the BSD 2-Clause and BSD 3-Clause. Both have very minute differences to the MIT license.',
    conditions: ['include-copyright'],
    permissions: PERMISSIVE,
    limitations: ['liability', 'warranty'],
    content: LICENSE_TEXTS['bsd-2-clause']!,
  },
  {
    key: 'bsd-3-clause',
    name: 'BSD 3-Clause "New" or "Revised" License',
    nickname: null,
    popular: false,
    source: 'https://spdx.org/licenses/BSD-3-Clause.html',
    description: 'A permissive license similar to the BSD 2-Clause License, but with a 3rd clause that prohibits others from using the name of the copyright holder or its contributors to promote derived products without written consent.',
    conditions: ['include-copyright'],
    permissions: PERMISSIVE,
    limitations: ['liability', 'warranty'],
    content: LICENSE_TEXTS['bsd-3-clause']!,
  },
  {
    key: 'gpl-3.0',
    name: 'GNU General Public License v3.0',
    nickname: 'GNU GPLv3',
    popular: true,
    source: 'https://spdx.org/licenses/GPL-3.0.html',
    description: 'Permissions of this strong copyleft license are conditioned on making available complete source code of licensed works and modifications, which include larger works using a licensed work, under the same license. Copyright and license notices must be preserved. Contributors provide an express grant of patent rights.',
    conditions: ['include-copyright', 'document-changes', 'disclose-source', 'same-license'],
    permissions: PATENTS,
    limitations: ['liability', 'warranty'],
    content: LICENSE_TEXTS['gpl-3.0']!,
  },
  {
    key: 'mit',
    name: 'MIT License',
    nickname: null,
    popular: true,
    source: 'https://spdx.org/licenses/MIT.html',
    description: 'A short and simple permissive license with conditions only requiring preservation of copyright and license notices. Licensed works, modifications, and larger works may be distributed under different terms and without source code.',
    conditions: ['include-copyright'],
    permissions: PERMISSIVE,
    limitations: ['liability', 'warranty'],
    content: LICENSE_TEXTS.mit!,
  },
]

/** `LicenseTemplate::PROJECT_TEMPLATE_REGEX`. */
const PROJECT = /[<{[](project|description|one line.+what it does\.)[>}\]]/gi
/** `LicenseTemplate::YEAR_TEMPLATE_REGEX`. */
const YEAR = /[<{[](year|yyyy)[>}\]]/gi
/** `LicenseTemplate::FULLNAME_TEMPLATE_REGEX`. */
const FULLNAME = /[<{[](fullname|name of copyright owner|name of author|copyright holders)[>}\]]/gi

/**
 * `LicenseTemplate#resolve!`: the text with the year, then the project name, then the full name
 * filled in; a blank value leaves its placeholder.
 */
export function resolveLicense(content: string, fill: { year: string; project?: string | undefined; fullname?: string | undefined }): string {
  let text = content.replace(YEAR, () => fill.year)
  if (fill.project) text = text.replace(PROJECT, () => fill.project!)
  if (fill.fullname) text = text.replace(FULLNAME, () => fill.fullname!)
  return text
}
