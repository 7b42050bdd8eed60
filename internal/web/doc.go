// Package web holds askplane's HTML surfaces as templ components: the
// in-page widget (Launcher, which every page carries, and Panel, fetched on
// the reader's first intent), rendered at build time into the Hugo
// module's partials by internal/modulegen. Each surface is one .templ file with its
// committed _templ.go; exported components are the API, their parts stay
// unexported, and every component takes one view-model built by its caller.
// Templates do no I/O.
//
// # Language
//
// The widget speaks the page's language through Hugo's i18n: every string
// renders as a lookup marker holding its i18n key and English default
// (i18n.go), and askplane/widget-shell.html replaces each with the site
// language's string from the module's i18n/<lang>.toml, merged under the
// site's own, or with the English when there is none. The JS shows no
// string of its own: it reads them from the "messages" template.
//
// # The widget's hooks
//
// The widget's JavaScript finds every element through a data-askplane-*
// attribute, never through classes (classes are for the stylesheet and may
// change). The Hugo partial askplane/widget.html writes the root; the
// generated markup inside it is Launcher's output, and the loader appends
// Panel's to its shell.
//
// On the root (written by widget.html, Hugo-dynamic values):
//
//	data-askplane-root       the widget's root element
//	data-askplane-endpoint   the Ask endpoint URL (site.Params.askplane.endpoint); absent when unset
//	data-askplane-lang       the site language (site.Language.Lang); set it as lang on cloned answers
//	data-askplane-core       URL of the protocol core module (assets/askplane/dist/core.js, bundled
//	                         apart from main.js, then fingerprinted); the JS imports it on first intent
//	data-askplane-core-integrity  its SRI hash, checked through a modulepreload link before the import
//	data-askplane-ready      set by the JS once it runs; until then the stylesheet hides the widget
//	data-askplane-markup     URL of the panel's markup, Panel's output in the site language (a
//	                         fingerprinted file per language); the loader fetches it on first intent
//	data-askplane-markup-integrity  its SRI hash, checked by that fetch
//	data-askplane-feedback   present when params.askplane.feedback = true: complete backend answers
//	                         with a context_id offer the helpful / not helpful control
//
// The static shell (ids are unique on the page; one widget per page):
//
//	data-askplane-shell      wrapper of everything below; carries lang (the site language's code)
//	data-askplane-launcher   button that opens and closes the panel (aria-expanded, aria-controls)
//	data-askplane-panel      the panel (id askplane-panel), hidden until opened; toggle its hidden attribute.
//	                         In the published markup it also carries data-askplane-sha256 and
//	                         data-askplane-sha256-integrity (added by the Hugo partial): the URL and SRI
//	                         hash of the SHA-256 module (assets/askplane/dist/sha256.js), which the JS
//	                         imports, checked, only where Web Crypto is missing
//	data-askplane-close      button in the panel's header that closes it
//	data-askplane-new        button in the header that starts a new conversation; hidden while
//	                         the log is empty
//	data-askplane-form       the ask form; handle submit, never let it navigate
//	data-askplane-input      the question's text input (id askplane-q, labelled, maxlength 512)
//	data-askplane-submit     the form's submit button
//	data-askplane-stop       a button that aborts the request in flight (one in the form, one in each
//	                         streamed answer); the form's is hidden until a request runs
//	data-askplane-hint       the hint under the input (the input's description)
//	data-askplane-status     the polite live region (role=status): put short announcements here as text
//	data-askplane-log        where cloned entries go, in order
//	data-askplane-empty      the introduction shown before the first question; hide it then
//	data-askplane-suggestion-list  the list of suggested questions in it (labelled), hidden; the
//	                         Hugo partial fills it with a button per question (at most six of
//	                         params.askplane.suggestions per language) and shows it; the JS makes
//	                         a button ask its text
//
// Templates, cloned with template.content.cloneNode(true) and filled with
// text (textContent, never innerHTML); they hold no ids:
//
//	data-askplane-template="question"    the reader's question echoed into the log
//	  data-askplane-question-text          its text
//	data-askplane-template="answer"      an exact local answer
//	  data-askplane-answer                 the entry
//	  data-askplane-markdown               the answer's markdown, as text in <p>, <pre><code> and
//	                                       <code>; each code block gets a data-askplane-copy button
//	  data-askplane-sources-block          the "Sources" block; hide it when there are none
//	  data-askplane-sources                the list that receives "source" clones
//	data-askplane-template="source"      one cited source
//	  data-askplane-source                 the list item
//	  data-askplane-source-link            the link: set textContent to the title and href only
//	                                       through the safe-link rule, else leave it without href
//	data-askplane-template="choices"     several exact answers match
//	  data-askplane-choices                the entry
//	  data-askplane-choice-list            the list that receives "choice" clones
//	data-askplane-template="choice"      one choice
//	  data-askplane-choice                 its button (type=button); text is the label; keep the
//	                                       suggestion in JS, not in the DOM
//	data-askplane-template="offline"     no backend to ask: why there is no answer is the answer
//	  data-askplane-offline                the entry; set data-askplane-reason on it to the reason
//	  data-askplane-reason-text="<reason>" one explanation per reason (offline, stale, corrupt),
//	                                       all hidden; unhide the matching one
//	data-askplane-template="stream"      a backend answer arriving incrementally
//	  data-askplane-stream                 the entry, aria-busy="true" until the stream ends
//	  data-askplane-progress               the "writing an answer" line; hide it at the end
//	  data-askplane-markdown               append the streamed text here
//	  data-askplane-sources-block          hidden; unhide when the stream cites sources
//	  data-askplane-sources                receives "source" clones
//	  data-askplane-stop                   aborts this stream; hide it at the end
//	  data-askplane-evidence               the "review the evidence" slot, hidden until there is a link
//	  data-askplane-evidence-link          the link in it (href through the safe-link rule)
//	  data-askplane-feedback               "Was this helpful?", hidden; shown once the answer is
//	                                       complete when the root has data-askplane-feedback
//	  data-askplane-feedback-text          its question
//	  data-askplane-verdict="<verdict>"    its buttons (helpful, not_helpful)
//	data-askplane-template="error"       something failed
//	  data-askplane-error                  the entry; the JS sets data-askplane-code (the backend's
//	                                       code or status, for debugging; never shown)
//	  data-askplane-error-text             the notice: one of the messages, in the reader's language
//	  data-askplane-retry                  hidden; shown when trying again can help (the latest failure)
//	data-askplane-template="code"        a code block's box: the JS puts the answer's pre in it
//	  data-askplane-copy                   its copy button (first in the box); the JS writes
//	                                       "copied" on it for two seconds
//	data-askplane-template="messages"    the strings the JS announces or shows
//	  data-askplane-messages               their container
//	  data-askplane-message="<key>"        one string per key: see MessageKeys
//
// Shared by the answer and stream templates:
//
//	data-askplane-provenance  the line that says where the answer came from
//
// Both generated outputs are refreshed with go generate ./internal/web.
package web

//go:generate go tool templ generate -path .
//go:generate go run ../modulegen
