// The widget's own bounds, beside the protocol's (limits.js): what it
// keeps in memory and in sessionStorage. A module of constants and nothing
// else, so the bundler writes each value where it is used.

/** Choice reservations: at most this many chat sessions remembered. */
export const MAX_CHOICE_SESSIONS = 256;
/** Choice reservations: at most this many choice lists per session. */
export const MAX_SESSION_CHOICES = 256;

/** The kept transcript: at most this many turns (a question or an answer is one). */
export const KEEP_TURNS = 24;
/** The kept transcript: at most this many UTF-16 units of JSON. */
export const KEEP_UNITS = 32768;
