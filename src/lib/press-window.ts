/** The time a double click or a repeated Enter spans: a press later than this is a new press. */
export const REPEAT_AFTER_MS = 800;
