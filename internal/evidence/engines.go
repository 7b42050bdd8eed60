package evidence

import (
	"fmt"

	"github.com/askplane/askplane/internal/corpus"
)

// DefaultEngineID is the engine a site answers with unless it names
// another.
const DefaultEngineID = EngineID2

// EngineIDs lists the engines New can build, oldest first. An engine stays
// here as long as packages recorded with it may need replaying.
func EngineIDs() []string { return []string{EngineID, EngineID2} }

// New indexes c with the engine named id ("" for DefaultEngineID).
func New(id string, c *corpus.Corpus) (Engine, error) {
	switch id {
	case "":
		return New(DefaultEngineID, c)
	case EngineID:
		return NewIndex(c), nil
	case EngineID2:
		return NewIndex2(c), nil
	}
	return nil, fmt.Errorf("evidence: unknown engine %q (known: %q)", id, EngineIDs())
}
