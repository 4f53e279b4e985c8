/**
 * The award emoji area's error messages: `lib/api/award_emoji.rb` answers a failed award with
 * `not_found!("Award Emoji #{errors}")`, so these become part of a 404 resource name.
 * gitlab: lib/api/award_emoji.rb, app/models/award_emoji.rb.
 * @module
 */

/** Messages of the award emoji routes. */
export const AwardEmojiMessage = {
  /** 404 resource: a system note cannot be awarded. */
  notAwardable: 'Award Emoji Awardable cannot be awarded emoji',
  /** 404 resource prefix, followed by the `full_messages` as a Ruby array. */
  failed: (inspectedMessages: string) => `Award Emoji [${inspectedMessages}]`,
  /** Full message: a blank `name`. */
  nameBlank: "Name can't be blank",
  /** Full message: a name not in GitLab's emoji list. */
  nameNotIncluded: 'Name is not included in the list',
  /** Full message: the user already awarded this emoji. */
  nameTaken: 'Name has already been taken',
} as const
