package main

import (
	"fmt"
	"io"
)

// runDev will build exampleSite with the pinned Hugo and serve it with the
// sidecar on one port. Until the Hugo module lands it says so plainly and
// points at what works today.
func runDev(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintln(stderr, "askplane dev: takes no arguments yet")
		return exitUsage
	}
	fmt.Fprint(stdout, `askplane dev: coming next.

The Hugo module, the example site and the sidecar are not built yet, so
there is no site to serve. What works today is the protocol core; try it on
the AgentsKit conformance fixtures:

  go run ./sidecar/cmd/askplane protocol verify \
      --site testdata/conformance/fixtures/site.json \
      --artifact testdata/conformance/fixtures/knowledge.json
  go run ./sidecar/cmd/askplane protocol resolve \
      --site testdata/conformance/fixtures/site.json \
      --artifact testdata/conformance/fixtures/knowledge.json \
      --now 2026-07-13T12:00:00Z docs
`)
	return exitOK
}
