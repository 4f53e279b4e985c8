/**
 * The notes area's error messages. gitlab: lib/api/discussions.rb, lib/api/helpers/notes_helpers.rb.
 * @module
 */

/** Messages of the note and discussion routes (400 `bad_request!` reasons). */
export const NoteMessage = {
  /** Replying to a discussion that cannot take replies (a system note's). */
  cannotReply: 'Discussion can not be replied to.',
  /** Resolving a note that is not resolvable (an issue's, or a plain comment). */
  notResolvable: 'Note is not resolvable',
} as const
