/**
 * The deployments area's lookup hook in the environments area, loaded by its `register` (issue 39
 * item 4) before the first request: an environment's `last_deployment` comes from here, which the
 * environments area asks through its hook. gitlab: lib/api/entities/environment.rb (13.12).
 * @module
 */
import { registerLastDeploymentLookup } from '../environments/environments.public.js'
import { lastDeploymentEntity } from './deployments.public.js'

registerLastDeploymentLookup(lastDeploymentEntity)
