// Type-checked (tsc --noEmit), not run: every entry's public types, as a consumer imports them.
import {
  ApiError,
  createSimulator,
  ScenarioError,
  type Arranged,
  type FaultRule,
  type Issue,
  type Label,
  type Member,
  type Milestone,
  type Runner,
  type ScenarioInput,
  type Todo,
  type JournalEntry,
  type JournalQuery,
  type Scenario,
  type ScenarioProblem,
  type Simulator,
  type SimulatorOptions,
  type SimulatorSnapshot,
} from 'fakelab'
import { DEFAULT_SCENARIO_YAML, defaultScenario } from 'fakelab/default-scenario'
import { createHandlers, type HandlerOptions } from 'fakelab/msw'
import {
  controlClient,
  ControlError,
  DEFAULT_SCENARIO_PATH,
  loadDefaultScenario,
  loadScenarioFile,
  startServer,
  type ControlClient,
  type RunningServer,
  type ServerOptions,
} from 'fakelab/node'
import type { HttpHandler } from 'msw'

export async function everything(): Promise<void> {
  const scenario: Scenario = await loadDefaultScenario()
  const options: SimulatorOptions = { scenario, seed: 7, journalSize: 10 }
  const sim: Simulator = createSimulator(options)
  const handlerOptions: HandlerOptions = { baseUrl: 'https://gitlab.test', onUnimplemented: 'passthrough' }
  const handlers: HttpHandler[] = createHandlers(sim, handlerOptions)
  const serverOptions: ServerOptions = { port: 0 }
  const server: RunningServer = await startServer(sim, serverOptions)
  const control: ControlClient = controlClient(server.url)
  const entries: JournalEntry[] = await control.journal({ route: 'GET /user' })
  const query: JournalQuery = { route: 'GET /user', status: 200 }
  const found: JournalEntry[] = sim.journal.find(query)
  const rule: FaultRule = { route: 'GET /user', status: 503, times: 1 }
  sim.faults.set([rule])
  const snapshot: SimulatorSnapshot = sim.snapshot()
  sim.restore(snapshot)
  sim.reset()
  const other: Scenario = await loadScenarioFile(DEFAULT_SCENARIO_PATH)
  const embedded: Scenario = defaultScenario()
  const text: string = DEFAULT_SCENARIO_YAML
  try {
    createSimulator({ scenario: 'version: 2' })
  } catch (error) {
    if (error instanceof ScenarioError) {
      const problems: readonly ScenarioProblem[] = error.problems
      void problems
    }
  }
  const input: ScenarioInput = { version: 1, users: [{ username: 'zoe', tokens: [{ token: 'glpat-zoe', scopes: ['api'] }] }] }
  const arranged: Arranged = createSimulator({ scenario: input }).arrange({ users: [{ username: 'yann' }] })
  const label: Label = (await (await sim.handle(new Request('http://gitlab.test/api/v4/projects/20/labels/1'))).json()) as Label
  const color: string = label.color
  type Entities = [Issue, Member, Milestone, Runner, Todo]
  const none: Entities | undefined = undefined
  void [handlers, entries, found, other, ApiError, ControlError, arranged, color, none, embedded, text]
  await server.close()
}
