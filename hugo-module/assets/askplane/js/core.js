// The widget's protocol core and the interactive widget, as one module of
// their own: everything a reader needs once they show intent (the Widget,
// which verifies and resolves the artifact, keeps choice reservations and
// streams the Ask request). It is bundled apart from main.js
// (assets/askplane/dist/core.js, written by go generate ./internal/web)
// and Hugo publishes it as a fingerprinted module
// (layouts/_partials/askplane/widget-shell.html) whose URL and integrity
// the widget's root carries; the loader (main.js) imports it on first
// intent, alongside the panel's markup. So a page whose reader never
// reaches for the widget loads only the launcher, the loader and the
// stylesheet. The tests and the Go cross-check import runtime/'s modules
// directly; this file exports only what the loader calls.
export { Widget } from './ui/widget.js';
