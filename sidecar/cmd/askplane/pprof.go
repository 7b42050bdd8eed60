//go:build askplane_pprof

package main

import (
	"fmt"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
)

// Built with -tags askplane_pprof only (scripts/bench-ask.sh PROFILE=1):
// when ASKPLANE_PPROF_ADDR names a loopback address, net/http/pprof is
// served there, on a listener of its own, so a load benchmark can take a
// CPU profile of the server under load. A release binary has no such
// code.
func init() {
	addr := os.Getenv("ASKPLANE_PPROF_ADDR")
	if addr == "" {
		return
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "askplane: pprof:", err)
		os.Exit(1)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	fmt.Fprintf(os.Stderr, "askplane: pprof on http://%s/debug/pprof/\n", ln.Addr())
	go http.Serve(ln, mux) //nolint:errcheck // lives as long as the process
}
