package protocol

import "slices"

// MergeAskHistory applies the reference merge (ADR-0026) of an Ask
// request's messages into the stored conversation: the latest user turn
// of the submitted list is appended to the stored history unless the
// stored history already ends with that same user turn; any other client
// history is ignored. It returns the merged history and the trimmed question, or
// ok false when there is no non-blank user turn.
func MergeAskHistory(stored, submitted []AskMessage) (merged []AskMessage, question string, ok bool) {
	i := len(submitted) - 1
	for i >= 0 && submitted[i].Role != RoleUser {
		i--
	}
	if i < 0 {
		return nil, "", false
	}
	latest := submitted[i]
	question = Trim(latest.Content)
	if question == "" {
		return nil, "", false
	}
	if n := len(stored); n > 0 && stored[n-1].Role == RoleUser && stored[n-1].Content == latest.Content {
		return slices.Clone(stored), question, true
	}
	merged = append(slices.Clone(stored), latest)
	return LastAskMessages(merged, MaxAskMessages), question, true
}

// LastAskMessages is the newest n messages of list.
func LastAskMessages(list []AskMessage, n int) []AskMessage {
	if len(list) > n {
		return list[len(list)-n:]
	}
	return list
}
