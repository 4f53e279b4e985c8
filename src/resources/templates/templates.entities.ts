/**
 * The templates API's entities: `TemplatesList` (key, name), `Template` (name, content) and
 * `License` (LicenseBasic's key, name, nickname, html_url, source_url, then popular, description,
 * conditions, permissions, limitations, content). gitlab: lib/api/entities/templates_list.rb,
 * template.rb, license_basic.rb, license.rb (13.12).
 * @module
 */
import type { LicenseTemplate, NamedTemplate } from './templates.catalog.js'

/** A template in a list: its key and name (the same). */
export function TemplatesList(t: NamedTemplate) {
  return { key: t.name, name: t.name }
}

/** One template: its name and content. */
export function Template(t: NamedTemplate) {
  return { name: t.name, content: t.content }
}

/** A license template, key by key in GitLab's order, with its (resolved) content. */
export function License(l: LicenseTemplate, content: string) {
  return {
    key: l.key,
    name: l.name,
    nickname: l.nickname,
    html_url: `http://choosealicense.com/licenses/${l.key}/`,
    source_url: l.source,
    popular: l.popular,
    description: l.description,
    conditions: [...l.conditions],
    permissions: [...l.permissions],
    limitations: [...l.limitations],
    content,
  }
}
