// askplane widget protocol core: the public API. Everything here is pure
// and synchronous except readAskEvents; nothing touches the DOM. Each
// module mirrors its Go counterpart in internal/protocol and
// internal/resolve, and both run testdata/conformance.

export * from './limits.js';
export { trim, utf16Length, truncateUTF16, isSafeIdentifier, isContentHash, isWellFormed, toWellFormed } from './text.js';
export { utf8Encode, utf8Length, decodeUTF8 } from './utf8.js';
export { normalizeKnowledgeKey } from './normalize.js';
export { isSafeHref } from './href.js';
export { parseDateTime, isDateTime } from './datetime.js';
export { Sha256, sha256, sha256Hex } from './sha256.js';
export { canonicalText, canonicalDigest, contentHash, PLACEHOLDER_HASH } from './canonical.js';
export {
  CODE_INVALID_PAYLOAD,
  CODE_UNSUPPORTED_VERSION,
  CODE_LIMIT_EXCEEDED,
  CODE_HASH_MISMATCH,
} from './json.js';
export { decodeSiteConfig, encodeSiteConfig, siteTrust, FALLBACK_BACKEND, FALLBACK_DISABLED } from './site.js';
export { KINDS, decodeArtifact, verifyArtifact, computeContentHash, sealArtifact, encodeArtifact } from './knowledge.js';
export {
  OUTCOME_ANSWER,
  OUTCOME_CHOICES,
  OUTCOME_ESCALATION,
  REASON_MISS,
  REASON_STALE,
  REASON_CORRUPT,
  REASON_OFFLINE,
  MESSAGE_CHOICES,
  MESSAGE_MISS,
  MESSAGE_STALE,
  MESSAGE_CORRUPT,
  MESSAGE_OFFLINE,
  MESSAGE_CHOICE_MISSING,
  queryFields,
  escalate,
  decodeEnvelope,
  encodeEnvelope,
} from './answer.js';
export { Resolver, createResolver, decide, ACTION_LOCAL, ACTION_ESCALATE } from './resolver.js';
export {
  Reservations,
  Claim,
  choiceFrame,
  sanitizeIdentifier,
  CHOICES_INSTANCE_PREFIX,
  MAX_CHOICE_SESSIONS,
  MAX_SESSION_CHOICES,
  SUBMIT_GRANTED,
  SUBMIT_UNAVAILABLE,
  SUBMIT_NOT_DETERMINISTIC,
} from './reservations.js';
export {
  ROLE_USER,
  ROLE_ASSISTANT,
  CODE_ASK_INVALID_REQUEST,
  encodeAskRequest,
  buildAskRequest,
  decodeAskRequest,
  decodeAskEvent,
  decodeAskEvents,
  encodeAskEvent,
  AskEventDecoder,
  readAskEvents,
} from './ask.js';
export { evidenceHref, feedbackRequest } from './feedback.js';
