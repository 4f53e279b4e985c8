/**
 * Registers the groups area's uploaded avatars with the entities' `avatar_url` at start
 * (src/rules/avatars.ts). gitlab: app/models/concerns/avatarable.rb.
 * @module
 */
import { registerAvatarFinder } from '../../rules/avatars.js'

registerAvatarFinder('group', (db, id) => db.tables.group_avatars.where('group_id', id)[0]?.filename)
