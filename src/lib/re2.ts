/**
 * Why RE2, the engine the platform matches branch filters with, refuses a pattern, or null when
 * it takes it. RE2's own JavaScript port decides, so the console and the platform agree; it is
 * loaded only the first time a pattern is checked (it weighs about 46 KB gzip).
 */
export async function re2Problem(pattern: string): Promise<string | null> {
  const { RE2JS, RE2JSSyntaxException } = await import('re2js');
  try {
    RE2JS.compile(pattern);
    return null;
  } catch (error) {
    if (error instanceof RE2JSSyntaxException) return error.message.replace(/^error parsing regexp: /, '');
    throw error;
  }
}
