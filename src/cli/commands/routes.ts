/**
 * `fakelab routes [--all] [--json]`: GitLab 13.12 CE's REST routes with fakelab's share, per area
 * (a GitLab lib/api file), what docs/coverage.md and `GET /-/fakelab/routes` show.
 *
 * stdout: one line per area (`lib/api/labels.rb  9/9`); with `--all` every route under it with
 * `[x]` (simulated) or `[ ]`; with `--json` the table as JSON. Exit code 0. Source: issue 40 item 1.
 * @module
 */
import type { Command } from 'commander'

const EXAMPLES = `
Examples:
  $ fakelab routes                 # per GitLab file: routes simulated / routes in GitLab 13.12 CE
  $ fakelab routes --all           # every route, [x] simulated, [ ] not
  $ fakelab routes --json | jq '.areas[] | select(.simulated < .gitlab) | .area'
`

/**
 * Adds `routes` to the program.
 * @returns the new subcommand.
 */
export function registerRoutesCommand(program: Command): Command {
  return program
    .command('routes')
    .description("list GitLab 13.12 CE's REST routes and which of them fakelab simulates")
    .option('--all', 'print every route with [x] (simulated) or [ ]')
    .option('--json', 'print the table as JSON (the same as GET /-/fakelab/routes)')
    .addHelpText('after', EXAMPLES)
    .action(async (options: { all?: boolean; json?: boolean }) => {
      // Loaded here, not at start: other commands need neither the route table nor GitLab's route list.
      const [{ ROUTE_TABLE }, { coverageText, routeTable }] = await Promise.all([import('../../resources/route-table.js'), import('../../reference/coverage.js')])
      const table = routeTable(Object.values(ROUTE_TABLE).flatMap((area) => area.api))
      process.stdout.write(options.json ? `${JSON.stringify(table, null, 2)}\n` : coverageText(table, options.all === true))
    })
}
