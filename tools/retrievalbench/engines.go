package retrievalbench

import (
	"fmt"
	"strings"

	"github.com/askplane/askplane/internal/engines"
	"github.com/askplane/askplane/internal/evidence"
)

// Engine is one retrieval engine under test: its id and how it reads a
// corpus file and indexes it (each engine chunks a v3 corpus by its own
// rules).
type Engine struct {
	ID   string
	Open func(raw []byte, version string) (evidence.Engine, error)
}

// Engines are the engines the benchmark knows: the sidecar's retained
// engines (internal/engines), the current default first, so a new engine
// is measured as soon as it is retained.
var Engines = retained()

func retained() []Engine {
	var out []Engine
	for _, e := range engines.All() {
		out = append(out, Engine{ID: e.ID, Open: e.Open})
	}
	return out
}

// LookupEngines returns the engines named by a comma-separated id list
// ("" or "all": every known engine), in the order given.
func LookupEngines(ids string) ([]Engine, error) {
	if ids == "" || ids == "all" {
		return Engines, nil
	}
	var out []Engine
	for _, id := range strings.Split(ids, ",") {
		id = strings.TrimSpace(id)
		found := false
		for _, e := range Engines {
			if e.ID == id {
				out, found = append(out, e), true
				break
			}
		}
		if !found {
			known := make([]string, len(Engines))
			for i, e := range Engines {
				known[i] = e.ID
			}
			return nil, fmt.Errorf("unknown engine %q (known: %s)", id, strings.Join(known, ", "))
		}
	}
	return out, nil
}
