// Command askplane is askplane's command line: the protocol tools docs
// authors use to debug their facts, the dev server and the sidecar.
//
//	askplane protocol normalize        JSON array of strings on stdin → normalized keys
//	askplane protocol hash [FILE]      content hash of an artifact
//	askplane protocol verify --site FILE --artifact FILE
//	askplane protocol resolve --site FILE --artifact FILE [--now RFC3339]
//	                          [--fallback backend|disabled] [--choice ID] QUERY
//	askplane verify PUBLIC_DIR         check a built site's askplane outputs
//	askplane dev [--addr HOST:PORT]    build the example site and serve it with the sidecar
//	askplane serve --config FILE [--addr HOST:PORT]
//	                                   serve the Ask backend for built sites (see Config)
package main

import (
	"fmt"
	"io"
	"os"
)

// Exit codes.
const (
	exitOK      = 0
	exitFailed  = 1 // the input was read and found invalid
	exitUsage   = 2 // the command line or an input file could not be used
	commandName = "askplane"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run executes one command line. It is main without the process, so tests
// can run it in-process through testscript.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return exitUsage
	}
	switch args[0] {
	case "protocol":
		return runProtocol(args[1:], stdin, stdout, stderr)
	case "verify":
		return runVerify(args[1:], stdout, stderr)
	case "dev":
		return runDev(args[1:], stdout, stderr)
	case "serve":
		return runServe(args[1:], stdout, stderr)
	case "insights":
		return runInsights(args[1:], stdout, stderr)
	case "help", "-h", "-help", "--help":
		usage(stdout)
		return exitOK
	}
	fmt.Fprintf(stderr, "askplane: unknown command %q\n", args[0])
	usage(stderr)
	return exitUsage
}

func usage(w io.Writer) {
	fmt.Fprint(w, `Usage: askplane <command> [arguments]

Commands:
  protocol normalize        read a JSON array of strings on stdin, print their normalized keys
  protocol hash [FILE]      print the content hash of a knowledge artifact (stdin without FILE)
  protocol verify --site FILE --artifact FILE
                            verify an artifact against its site config
  protocol resolve --site FILE --artifact FILE [--now RFC3339]
                   [--fallback backend|disabled] [--choice ID] QUERY
                            print the answer envelope a client receives for QUERY
  verify PUBLIC_DIR         check every language's askplane outputs in a built site's
                            publish folder (manifest, site config, artifact, corpus)
  dev [--addr HOST:PORT]    build the example site and serve it with the sidecar
  serve --config FILE [--addr HOST:PORT]
                            serve the Ask backend for built sites described by a JSON config
  insights [--config FILE] --site ID [--days N] [--json]
                            report what readers asked that the docs did not answer well
                            (the site's "insights" setting must be on)
`)
}
