// An error caused by what the user asked for. Its message is one line that
// says what was wrong and how to fix it; it is shown as is, never with a stack.
export class UserError extends Error {
  override name = 'UserError';
}
