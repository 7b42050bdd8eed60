// Limits of the AgentsKit Chat v1 contracts, mirrored from
// internal/protocol/limits.go, ask.go and askevents.go. They are data, not
// policy: both implementations must reject exactly the same payloads, so a
// value changes here only when it changes in Go.
//
// Lengths count UTF-16 code units (String.prototype.length, which zod's
// min/max measure); sizes count UTF-8 bytes (what goes over the wire).

/**
 * Protocol names and the one version this code speaks.
 */
export const SITE_PROTOCOL = 'agentskit.chat.site';
/** The artifact's protocol name. */
export const KNOWLEDGE_PROTOCOL = 'agentskit.chat.knowledge';
/** The answer envelope's protocol name. */
export const ANSWER_PROTOCOL = 'agentskit.chat.answer';
/** The Ask request's protocol name. */
export const ASK_PROTOCOL = 'agentskit.chat.ask';
/** The one version of every contract this code speaks. */
export const VERSION = 1;

/**
 * Byte limits, checked before parsing.
 */
export const MAX_SITE_CONFIG_BYTES = 16_384;
/** An artifact's most UTF-8 bytes. */
export const MAX_ARTIFACT_BYTES = 524_288;
/** An answer envelope's most UTF-8 bytes. */
export const MAX_ANSWER_BYTES = 262_144;

/**
 * Field bounds (UTF-16 units unless said otherwise).
 */
export const MAX_IDENTIFIER_LEN = 128;
/** A SafeHref's most units. */
export const MAX_HREF_LEN = 2048;
/** An artifact's most entries. */
export const MAX_ENTRIES = 1024;
/** An entry's most match values. */
export const MAX_ALIASES = 16;
/** A match value's (and its key's) most units. */
export const MAX_ALIAS_LEN = 512;
/** A query's most units (and its key's). */
export const MAX_QUERY_LEN = 512;
/** An entry's or a suggestion's label: most units. */
export const MAX_LABEL_LEN = 256;
/** A citation title's most units. */
export const MAX_TITLE_LEN = 256;
/** An answer's markdown: most units. */
export const MAX_MARKDOWN_LEN = 16_384;
/** An answer's most citations. */
export const MAX_CITATIONS = 8;
/** An envelope message's most units. */
export const MAX_MESSAGE_LEN = 4096;
/** A choices envelope's most suggestions. */
export const MAX_SUGGESTIONS = 8;
/** A choices envelope's fewest suggestions. */
export const MIN_SUGGESTIONS = 2;
/** A provenance's most entry ids. */
export const MAX_ENTRY_IDS = 8;
/** A backend provenance's provider or model: most units. */
export const MAX_PROVIDER_LEN = 128;

/**
 * Nesting bound of every JSON text we parse. JSON.parse has none; Go's
 * ecmajson.MaxDepth is 128, and a payload one implementation accepts must
 * not be refused by the other, so the widget applies the same bound.
 */
export const MAX_JSON_DEPTH = 128;

/**
 * agentskit.chat.ask v1 request.
 */
export const MAX_ASK_BODY_BYTES = 65_536;
/** An Ask request's most messages. */
export const MAX_ASK_MESSAGES = 64;
/** An Ask message's most units. */
export const MAX_ASK_CONTENT_LEN = 16_384;

/**
 * Ask NDJSON events.
 */
export const MAX_ASK_EVENT_BYTES = 1_048_576; // one trimmed line, and a kept partial
/** Lines one decodeAskEvents call looks at. */
export const MAX_ASK_EVENT_LINES = 4096; // lines one decodeAskEvents call looks at
/** A text event's delta: most units. */
export const MAX_ASK_DELTA_LEN = 1_048_576;
/** A tool event's id: most units. */
export const MAX_ASK_TOOL_ID_LEN = 256;
/** A tool event's name: most units. */
export const MAX_ASK_TOOL_NAME_LEN = 128;
/** A tool args key: most units. */
export const MAX_ASK_ARG_KEY_LEN = 128;
/** A done event's model: most units. */
export const MAX_ASK_MODEL_LEN = 256;
/** An error event's message: most units. */
export const MAX_ASK_ERROR_LEN = 4096;
/** An error event's code: most characters. */
export const MAX_ASK_ERROR_CODE_LEN = 128;
