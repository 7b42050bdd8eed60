package retrievalbench

import (
	"fmt"
	"strings"

	"github.com/askplane/askplane/internal/generate"
)

// Generator is one answer generator under test: a name for the report
// and how to make one. The benchmark answers every question with each
// generator over each engine's evidence (answer.Grounded, as the sidecar
// wires it), so answers of two versions of a generator are compared in
// one run.
type Generator struct {
	Name string // "extractive/2"
	New  func() generate.Generator
}

// Generators are the generators the benchmark knows, today's first. A
// new version of a generator is measured by adding it here beside the
// one it replaces, under its own name.
var Generators = []Generator{
	{Name: "extractive/2", New: func() generate.Generator { return generate.Composer{} }},
	{Name: "extractive/1", New: func() generate.Generator { return generate.Extractive{} }},
}

// LookupGenerators returns the generators named by a comma-separated
// list ("" or "all": every known generator), in the order given.
func LookupGenerators(names string) ([]Generator, error) {
	if names == "" || names == "all" {
		return Generators, nil
	}
	var out []Generator
	for _, name := range strings.Split(names, ",") {
		name = strings.TrimSpace(name)
		found := false
		for _, g := range Generators {
			if g.Name == name {
				out, found = append(out, g), true
				break
			}
		}
		if !found {
			known := make([]string, len(Generators))
			for i, g := range Generators {
				known[i] = g.Name
			}
			return nil, fmt.Errorf("unknown generator %q (known: %s)", name, strings.Join(known, ", "))
		}
	}
	return out, nil
}
