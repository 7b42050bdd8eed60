package web

// The widget speaks the page's language through Hugo's i18n. The markup
// Widget renders is the source of a Hugo partial, and each of its strings
// renders as a lookup marker instead of as text:
//
//	[[askplane_launcher|Ask the docs]]
//
// that is, the string's i18n key and its English default (HTML-escaped, as
// templ escapes all text). The partial askplane/widget-shell.html replaces
// each marker with the site language's string for that key (T, then
// HTML-escaped), or with the English default when the language has none,
// so a missing translation never renders empty. LangMarker, the shell's
// lang, becomes the site's language code.
//
// Markers rather than {{ T … }} actions in the markup: internal/modulegen
// refuses rendered markup that holds a Hugo template delimiter, which keeps
// any string from ever turning into template code; the markers are plain
// text, escaped by templ like every other string.
const (
	// KeyPrefix starts every i18n key of the widget.
	KeyPrefix = "askplane_"
	// LangMarker stands for the site language's code in the lang attribute.
	LangMarker = "[[lang]]"

	markerOpen  = "[["
	markerSep   = "|"
	markerClose = "]]"
)

// lookup returns the marker of the string with i18n key KeyPrefix+key and
// English default english. The default must not contain the marker's
// delimiters ([, ] or |; TestStringsFitMarkers checks).
func lookup(key, english string) string {
	return markerOpen + KeyPrefix + key + markerSep + english + markerClose
}

// Strings returns every string of the widget by its i18n key (with
// KeyPrefix): what i18n/<lang>.toml files translate. The markup looks up
// exactly these keys (TestMarkupLooksUpEveryString checks).
func (vm WidgetView) Strings() map[string]string {
	out := map[string]string{
		"launcher":           vm.Launcher,
		"title":              vm.Title,
		"close":              vm.Close,
		"new":                vm.New,
		"intro":              vm.Intro,
		"suggestions_label":  vm.SuggestionsLabel,
		"label":              vm.Label,
		"hint":               vm.Hint,
		"submit":             vm.Submit,
		"stop":               vm.Stop,
		"you_asked":          vm.YouAsked,
		"sources":            vm.Sources,
		"local_provenance":   vm.LocalProvenance,
		"choices_prompt":     vm.ChoicesPrompt,
		"choices_label":      vm.ChoicesLabel,
		"offline_hint":       vm.OfflineHint,
		"streaming":          vm.Streaming,
		"backend_provenance": vm.BackendProvenance,
		"evidence":           vm.Evidence,
		"retry":              vm.Retry,
		"feedback":           vm.Feedback,
		"feedback_yes":       vm.FeedbackYes,
		"feedback_no":        vm.FeedbackNo,
	}
	for _, r := range vm.reasons() {
		out[r.Key] = r.Text
	}
	for _, k := range MessageKeys {
		out[messageKey(k)] = vm.Messages[k]
	}
	keyed := make(map[string]string, len(out))
	for k, v := range out {
		keyed[KeyPrefix+k] = v
	}
	return keyed
}

// messageKey is the i18n key (without KeyPrefix) of a JS message.
func messageKey(k string) string { return "message_" + k }
