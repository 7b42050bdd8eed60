package ask

import "github.com/askplane/askplane/internal/protocol"

func lastN(list []protocol.AskMessage, n int) []protocol.AskMessage {
	return protocol.LastAskMessages(list, n)
}
