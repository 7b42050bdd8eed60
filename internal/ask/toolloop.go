package ask

import (
	"context"

	"github.com/askplane/askplane/internal/run"
)

// toolLoop is the tool loop's machinery (slice 4).
type toolLoop struct{}

// transcriptTurn is one round of the tool loop's transcript.
type transcriptTurn struct{}

func (t *Tools) digest() string {
	if t == nil {
		return ""
	}
	return ""
}

func (h *Handler) toolRounds(ctx context.Context, x *run.Exec, st *askState) error { return nil }
