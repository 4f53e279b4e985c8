/**
 * GitLab's wiki naming rules (13.12, through Gitaly's Gollum): a page's file name is its title
 * with spaces, `<` and `>` made `-` (`Gollum::Page.cname`), its slug that path without the
 * extension, and its title the last path segment with `-` read as a space (`WikiPage.unhyphenize`).
 * gitlab: app/models/wiki_page.rb, app/models/wiki.rb; gollum-lib: lib/gollum-lib/page.rb (`cname`).
 * @module
 */

/** `Gollum::Page.cname`: spaces, `<` and `>` become `-`. */
function cname(title: string): string {
  return title.replace(/[ <>]/g, '-')
}

/** The title a page's slug shows: its last segment, hyphens read as spaces. */
export function titleOfSlug(slug: string): string {
  return (slug.split('/').pop() ?? slug).replace(/-+/g, ' ')
}

/** The directory part of a slug (`''` at the root). */
export function directoryOf(slug: string): string {
  const i = slug.lastIndexOf('/')
  return i < 0 ? '' : slug.slice(0, i)
}

/**
 * The slug a new title gives a page: a title with a `/` names its path from the wiki's root; one
 * without keeps the page's directory (`WikiPage#update` moving a page, `Wiki#update_page`).
 * Leading and repeated slashes are dropped, as Gitaly's path normalisation drops them.
 */
export function slugForTitle(title: string, directory = ''): string {
  const path = title.includes('/') ? title : directory === '' ? title : `${directory}/${title}`
  return cname(path.split('/').filter((s) => s !== '').join('/'))
}
