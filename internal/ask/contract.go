package ask

import "github.com/askplane/askplane/internal/grounding"

// Cited returns the sources whose ids used names, in sources' order,
// each once; CiteArgs is their cite event's args. For internal/askrun,
// whose answers cite as the live ones do.
func Cited(sources []grounding.Source, used []string) []grounding.Source {
	return citedSources(sources, used)
}

// CiteArgs writes the cite event's {"sources":[{"id","title","path"}]}.
func CiteArgs(cited []grounding.Source) []byte { return citeArgs(cited) }
