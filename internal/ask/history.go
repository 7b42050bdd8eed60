package ask

import (
	"slices"

	"github.com/askplane/askplane/internal/protocol"
)

// mergeHistory applies the reference merge: the latest user turn of the
// submitted list is appended to the stored history unless the stored
// history already ends with that same user turn; any other client history
// is ignored. It returns the merged history and the trimmed question, or
// ok false when there is no non-blank user turn.
func mergeHistory(stored, submitted []protocol.AskMessage) (merged []protocol.AskMessage, question string, ok bool) {
	i := len(submitted) - 1
	for i >= 0 && submitted[i].Role != protocol.RoleUser {
		i--
	}
	if i < 0 {
		return nil, "", false
	}
	latest := submitted[i]
	question = protocol.Trim(latest.Content)
	if question == "" {
		return nil, "", false
	}
	if n := len(stored); n > 0 && stored[n-1].Role == protocol.RoleUser && stored[n-1].Content == latest.Content {
		return slices.Clone(stored), question, true
	}
	merged = append(slices.Clone(stored), latest)
	return lastN(merged, protocol.MaxAskMessages), question, true
}

func lastN(list []protocol.AskMessage, n int) []protocol.AskMessage {
	if len(list) > n {
		return list[len(list)-n:]
	}
	return list
}

// LastN is the newest n messages of list (internal/askrun's session save).
func LastN(list []protocol.AskMessage, n int) []protocol.AskMessage { return lastN(list, n) }
