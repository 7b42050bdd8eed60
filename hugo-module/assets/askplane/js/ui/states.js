// The widget's states, in one table. Each is the key of a message in the
// panel markup's "messages" template (internal/web's MessageKeys, whose
// text is the i18n string askplane_message_<key>), which the status line
// announces when the widget enters it; done, stopped and error are also
// what a backend answer's entry says once its stream ended
// (data-askplane-state). A new state is a line here, its message in
// internal/web (a test in test/hugomodule holds the two lists equal), and
// the code that enters it.


/**
 * The states' names, indexed by the STATE_ constants: a message key, or
 * an entry's data-askplane-state.
 * @type {readonly string[]}
 */
export const STATES = [
  'loading',
  'answered',
  'choices',
  'escalating',
  'streaming',
  'done',
  'stopped',
  'refused',
  'cleared',
  'copy',
  'copied',
  'network',
  'unreachable',
  'busy',
  'failed',
  'nosources',
  'thanks',
  'error',
];

/** The artifact is still loading when a question is asked. */
export const STATE_LOADING = 0;
/** An exact answer is shown. */
export const STATE_ANSWERED = 1;
/** Choices are shown. */
export const STATE_CHOICES = 2;
/** The backend is asked. */
export const STATE_ESCALATING = 3;
/** The backend's answer is arriving. */
export const STATE_STREAMING = 4;
/** The backend's answer is complete. */
export const STATE_DONE = 5;
/** The reader stopped the answer. */
export const STATE_STOPPED = 6;
/** A choice was refused (forged, replayed or expired). */
export const STATE_REFUSED = 7;
/** The reader started a new conversation. */
export const STATE_CLEARED = 8;
/** A code block's copy button, ready. */
export const STATE_COPY = 9;
/** A code block was copied. */
export const STATE_COPIED = 10;
/** The widget's own code or answers could not be loaded. */
export const STATE_NETWORK = 11;
/** The docs backend could not be reached (network, or a status that says no Ask service is there). */
export const STATE_UNREACHABLE = 12;
/** The docs backend refused for now (rate limited). */
export const STATE_BUSY = 13;
/** The docs backend answered with an error. */
export const STATE_FAILED = 14;
/** The docs backend found no page that answers the question. */
export const STATE_NOSOURCES = 15;
/** The reader's verdict on an answer was sent. */
export const STATE_THANKS = 16;
/** A backend answer ended with an error (an entry's state; its notice says which). */
export const STATE_ERROR = 17;

/**
 * A widget state: one of the STATE_ constants, an index in STATES.
 * @typedef {number} State
 */
