package ask

import (
	"context"
	"errors"

	"github.com/askplane/askplane/internal/run"
)

// toolLoop is the tool loop's machinery: not built yet (issue 17's
// bounded tool loop); a site cannot configure Tools, and a run that
// somehow has them fails closed rather than answering from one search.
type toolLoop struct{}

// transcriptTurn is one round of the tool loop's transcript.
type transcriptTurn struct{}

func (t *Tools) digest() string {
	if t == nil {
		return ""
	}
	return run.Digest([]byte("tools:unbuilt"))
}

var errNoToolLoop = errors.New("ask: the tool loop is not built")

func (h *Handler) toolRounds(context.Context, *run.Exec, *askState) error { return errNoToolLoop }
