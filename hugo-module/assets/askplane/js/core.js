// The widget's protocol core as one module of its own: everything
// widget.js needs once a reader shows intent (verifying and resolving the
// artifact, choice reservations, the Ask request and its stream). It is
// bundled apart from main.js (assets/askplane/dist/core.js, written by go
// generate ./internal/web) and Hugo publishes it as a fingerprinted module
// (layouts/_partials/askplane/widget-shell.html) whose URL and integrity
// the widget's root carries, and widget.js imports it on first intent, alongside the
// artifact. So a page whose reader never reaches for the widget loads only
// the widget's shell code and stylesheet. index.js stays the core's full
// public API (tests, the Go cross-check); this file lists only what the
// widget calls.
export { decodeSiteConfig, siteTrust } from './site.js';
export { isSafeHref } from './href.js';
export { Resolver, decide } from './resolver.js';
export { Reservations, choiceFrame } from './reservations.js';
export { buildAskRequest, readAskEvents } from './ask.js';
export { evidenceHref, feedbackRequest } from './feedback.js';
export { ACTION_ESCALATE } from './resolver.js';
export { OUTCOME_ANSWER, OUTCOME_CHOICES } from './answer.js';
export { SUBMIT_GRANTED } from './reservations.js';
