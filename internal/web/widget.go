package web

import (
	"strconv"

	"github.com/askplane/askplane/internal/protocol"
)

// WidgetView is the widget's view-model: every string the markup shows or
// the JS announces, in English. The markup does not show them as they are:
// each renders as a lookup of its i18n key with the string as the default
// (see Lookup), so the site language's translation replaces it when the
// Hugo module builds a page.
type WidgetView struct {
	// The launcher and the panel.
	Launcher string // the launcher button's text
	Title    string // the panel's heading
	Close    string // the close button's accessible name
	New      string // the button that clears the conversation
	Intro    string // shown in the log before the first question
	// SuggestionsLabel names the list of suggested questions under it.
	SuggestionsLabel string

	// The ask box.
	Label  string // the input's visible label
	Hint   string // the input's description, under it
	Submit string // the submit button
	Stop   string // the stop buttons

	// Entries.
	YouAsked        string // visually hidden prefix of the echoed question
	Sources         string // heading of an answer's cited sources
	LocalProvenance string // under an exact local answer
	ChoicesPrompt   string // above the choices
	ChoicesLabel    string // the choice list's accessible name
	// Why there is no answer, when no backend is asked: the artifact has
	// none (miss), is out of date (stale) or did not verify (corrupt).
	ReasonMiss        string
	ReasonStale       string
	ReasonCorrupt     string
	OfflineHint       string // what the reader can do instead
	Streaming         string // while a backend answer arrives
	BackendProvenance string // under a backend answer
	Evidence          string // the "review the evidence" link
	Retry             string // the button that tries a failed question again
	// The helpful / not helpful control under a backend answer.
	Feedback    string // its question
	FeedbackYes string // helpful
	FeedbackNo  string // not helpful

	// Messages are the strings the JS announces in the live region or shows
	// for transient states, keyed by the MessageKeys.
	Messages map[string]string
}

// MessageKeys are the keys of WidgetView.Messages, in the order they are
// rendered into the "messages" template. The i18n key of each is
// askplane_message_<key>.
var MessageKeys = []string{
	"loading",     // the artifact is loading
	"answered",    // an exact answer is shown
	"choices",     // choices are shown
	"escalating",  // the backend is asked
	"streaming",   // the backend's answer is arriving
	"done",        // the backend's answer is complete
	"stopped",     // the reader stopped the answer
	"refused",     // a choice was refused (forged, replayed or expired)
	"cleared",     // the reader started a new conversation
	"copy",        // the copy button on a code block
	"copied",      // the code block was copied
	"network",     // the widget's own code or answers could not be loaded
	"unreachable", // the docs backend could not be reached (network, or a server error status)
	"busy",        // the docs backend refused for now (rate limited)
	"failed",      // the docs backend answered with an error
	"nosources",   // the docs backend found no page that answers the question
	"thanks",      // the reader's verdict on an answer was sent
}

// EnglishWidget returns the widget's English strings, the defaults of the
// module's i18n (i18n/en.toml holds the same strings; a test keeps them
// equal).
func EnglishWidget() WidgetView {
	return WidgetView{
		Launcher: "Ask the docs",
		Title:    "Ask the docs",
		Close:    "Close",
		New:      "New conversation",
		Intro:    "Ask a question about these docs. Exact answers come straight from this site; every answer cites its sources.",

		SuggestionsLabel: "Suggested questions",

		Label:  "Your question",
		Hint:   "For example: how do I install it? Press Enter to ask.",
		Submit: "Ask",
		Stop:   "Stop",

		YouAsked:          "You asked:",
		Sources:           "Sources",
		LocalProvenance:   "Exact answer from this site.",
		ChoicesPrompt:     "More than one answer matches. Choose one:",
		ChoicesLabel:      "Matching answers",
		ReasonMiss:        "This site has no exact answer to that question.",
		ReasonStale:       "This site's answers are out of date.",
		ReasonCorrupt:     "This site's answers could not be verified.",
		OfflineHint:       "Try other words, or browse the docs.",
		Streaming:         "Writing an answer from the docs…",
		BackendProvenance: "Answered from this site's pages.",
		Evidence:          "Review the evidence",
		Retry:             "Try again",
		Feedback:          "Was this helpful?",
		FeedbackYes:       "Yes",
		FeedbackNo:        "No",

		Messages: map[string]string{
			"loading":     "Loading answers…",
			"answered":    "Answer ready.",
			"choices":     "More than one answer matches. Choose one.",
			"escalating":  "Asking the docs backend…",
			"streaming":   "The answer is arriving.",
			"done":        "Answer complete.",
			"stopped":     "Stopped.",
			"refused":     "That choice is no longer available. Ask again.",
			"cleared":     "New conversation started.",
			"copy":        "Copy code",
			"copied":      "Copied.",
			"network":     "The answers could not be loaded. Try again.",
			"unreachable": "The docs backend could not be reached.",
			"busy":        "The docs backend is busy. Wait a moment, then try again.",
			"failed":      "The docs backend could not answer.",
			"nosources":   "The docs do not cover this question. Try other words.",
			"thanks":      "Thanks for the feedback.",
		},
	}
}

// maxQuery is the input's maxlength: the protocol's query limit in UTF-16
// units, which is also what maxlength counts.
var maxQuery = strconv.Itoa(protocol.MaxQueryLen)

// reasonText is one escalation reason, its i18n key and its explanation.
type reasonText struct{ Reason, Key, Text string }

// reasons returns the reasons an escalation that no backend answers may
// carry (a miss becomes offline), each with its explanation.
func (vm WidgetView) reasons() []reasonText {
	return []reasonText{
		{string(protocol.ReasonOffline), "reason_miss", vm.ReasonMiss},
		{string(protocol.ReasonStale), "reason_stale", vm.ReasonStale},
		{string(protocol.ReasonCorrupt), "reason_corrupt", vm.ReasonCorrupt},
	}
}
