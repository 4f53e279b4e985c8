/**
 * The email check of `POST …/invitations` and of a scenario's `invitations:`: Grape's
 * `email_or_email_list` validator (`ValidateEmail.valid?` on each address of the comma-separated
 * list). gitlab: lib/api/validations/validators/email_or_email_list.rb (13.12).
 * @module
 */

/** `ValidateEmail.valid?`: a local part, `@`, a dotted domain, nothing around. */
const EMAIL = /^[^@\s,]+@[^@\s,.]+(\.[^@\s,.]+)+$/

/** Whether every address of a comma-separated list is valid (`"a@x.org,b@y.org"`); an empty list passes, as Grape's validator lets it. */
export function validEmailList(value: string): boolean {
  return value.split(',').filter((part) => part !== '').every((part) => EMAIL.test(part))
}
