/** `%`, `_` and `\` match themselves: pair with `LIKE ? ESCAPE '\'`. */
export const likeEscape = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

/** A LIKE pattern for "contains", the platform's substring search. */
export const likeContains = (text: string) => `%${likeEscape(text)}%`;
