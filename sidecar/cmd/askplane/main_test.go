package main

import (
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain registers askplane as a testscript command, the way Hugo
// registers hugo, so scripts run the real command line in-process.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		commandName: func() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs every archive in testdata/script: each holds a command
// line flow with its input files and expected output.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			// Scripts read the shared fixtures through $FIXTURES.
			env.Setenv("FIXTURES", fixturesDir())
			return nil
		},
	})
}

func fixturesDir() string {
	wd, _ := os.Getwd()
	return wd + "/../../../testdata/conformance/fixtures"
}
