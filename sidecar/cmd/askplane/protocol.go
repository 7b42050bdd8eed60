package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/askplane/askplane/internal/protocol"
	"github.com/askplane/askplane/internal/resolve"
)

// Input bounds. Files are read as raw bytes, one byte past the protocol
// limit, so an oversize file fails the way an oversize fetch would.
const (
	maxNormalizeInput = 8 << 20
	maxNormalizeKeys  = 100_000
)

func runProtocol(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "askplane protocol: want normalize, hash, verify or resolve")
		return exitUsage
	}
	cmd := protocolCmd{stdin: stdin, stdout: stdout, stderr: stderr, name: "askplane protocol " + args[0]}
	switch args[0] {
	case "normalize":
		return cmd.normalize(args[1:])
	case "hash":
		return cmd.hash(args[1:])
	case "verify":
		return cmd.verify(args[1:])
	case "resolve":
		return cmd.resolve(args[1:])
	}
	fmt.Fprintf(stderr, "askplane protocol: unknown command %q\n", args[0])
	return exitUsage
}

type protocolCmd struct {
	name           string
	stdin          io.Reader
	stdout, stderr io.Writer
}

func (c protocolCmd) flags() *flag.FlagSet {
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	fs.SetOutput(c.stderr)
	return fs
}

func (c protocolCmd) usageErr(format string, args ...any) int {
	fmt.Fprintf(c.stderr, c.name+": "+format+"\n", args...)
	return exitUsage
}

// normalize reads a JSON array of strings and prints the normalized keys.
func (c protocolCmd) normalize(args []string) int {
	if len(args) != 0 {
		return c.usageErr("reads a JSON array of strings on stdin and takes no arguments")
	}
	data, err := readBounded(c.stdin, maxNormalizeInput)
	if err != nil {
		return c.usageErr("%v", err)
	}
	var in []string
	if err := json.Unmarshal(data, &in); err != nil {
		return c.usageErr("stdin must be a JSON array of strings")
	}
	if len(in) > maxNormalizeKeys {
		return c.usageErr("at most %d strings", maxNormalizeKeys)
	}
	out := []byte{'['}
	for i, s := range in {
		if i > 0 {
			out = append(out, ',')
		}
		out = protocol.AppendJSONString(out, protocol.NormalizeKey(s))
	}
	out = append(out, ']', '\n')
	c.stdout.Write(out)
	return exitOK
}

// hash prints an artifact's content hash, computed whether or not the
// artifact already declares one.
func (c protocolCmd) hash(args []string) int {
	if len(args) > 1 {
		return c.usageErr("takes at most one FILE")
	}
	var data []byte
	var err error
	if len(args) == 1 {
		data, err = readFile(args[0], protocol.MaxArtifactBytes)
	} else {
		data, err = readBounded(c.stdin, protocol.MaxArtifactBytes)
	}
	if err != nil {
		return c.usageErr("%v", err)
	}
	h, err := protocol.ComputeContentHash(data)
	if err != nil {
		c.printJSON(protocol.AsDiagnostic(err))
		return exitFailed
	}
	fmt.Fprintln(c.stdout, h)
	return exitOK
}

// verify checks an artifact against its site config.
func (c protocolCmd) verify(args []string) int {
	fs := c.flags()
	sitePath := fs.String("site", "", "site config `FILE` (agentskit.chat.site v1)")
	artifactPath := fs.String("artifact", "", "knowledge artifact `FILE` (agentskit.chat.knowledge v1)")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if *sitePath == "" || *artifactPath == "" || fs.NArg() != 0 {
		return c.usageErr("want --site FILE --artifact FILE")
	}
	site, artifact, code := c.load(*sitePath, *artifactPath)
	if code != exitOK {
		return code
	}
	if _, err := protocol.VerifyArtifact(artifact, site.Trust()); err != nil {
		c.printJSON(verdict{Diagnostic: protocol.AsDiagnostic(err)})
		return exitFailed
	}
	c.printJSON(verdict{OK: true})
	return exitOK
}

type verdict struct {
	OK         bool                 `json:"ok"`
	Diagnostic *protocol.Diagnostic `json:"diagnostic,omitempty"`
}

// resolve prints the answer envelope a client receives for a query, after
// the fallback rules: a miss with no usable backend becomes offline.
func (c protocolCmd) resolve(args []string) int {
	fs := c.flags()
	sitePath := fs.String("site", "", "site config `FILE`")
	artifactPath := fs.String("artifact", "", "knowledge artifact `FILE`")
	now := fs.String("now", "", "resolve at this `RFC3339` instant instead of the current time")
	fallback := fs.String("fallback", "", "override the site's fallback mode: `backend` or disabled")
	choice := fs.String("choice", "", "resolve the choice `ID` offered for QUERY")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if *sitePath == "" || *artifactPath == "" || fs.NArg() != 1 {
		return c.usageErr("want --site FILE --artifact FILE QUERY")
	}
	query := fs.Arg(0)
	clock := func() int64 { return time.Now().UnixMilli() }
	if *now != "" {
		t, err := time.Parse(time.RFC3339Nano, *now)
		if err != nil {
			return c.usageErr("--now must be an RFC3339 time")
		}
		clock = func() int64 { return t.UnixMilli() }
	}
	site, data, code := c.load(*sitePath, *artifactPath)
	if code != exitOK {
		return code
	}
	mode := site.Fallback
	switch *fallback {
	case "":
	case string(protocol.FallbackBackend), string(protocol.FallbackDisabled):
		mode = protocol.FallbackMode(*fallback)
	default:
		return c.usageErr("--fallback must be backend or disabled")
	}
	// A client that cannot verify the artifact still answers: every
	// question escalates as corrupt.
	artifact, _ := protocol.VerifyArtifact(data, site.Trust())
	r := resolve.New(artifact, site.Trust(), resolve.WithClock(clock))
	var env *protocol.Envelope
	if *choice != "" {
		env = r.ResolveChoice(*choice, query)
	} else {
		env = r.Resolve(query)
	}
	env = resolve.Decide(env, mode, mode == protocol.FallbackBackend).Envelope
	// MarshalJSON writes JSON.stringify's bytes; encoding/json would
	// re-escape <, >, & and U+2028/2029.
	out, _ := env.MarshalJSON()
	c.stdout.Write(append(out, '\n'))
	return exitOK
}

// load reads and decodes the site config and reads the artifact bytes. A
// site config that does not decode is reported as a diagnostic, since
// without a trust anchor nothing can be verified.
func (c protocolCmd) load(sitePath, artifactPath string) (*protocol.SiteConfig, []byte, int) {
	siteData, err := readFile(sitePath, protocol.MaxSiteConfigBytes)
	if err != nil {
		return nil, nil, c.usageErr("%v", err)
	}
	artifact, err := readFile(artifactPath, protocol.MaxArtifactBytes)
	if err != nil {
		return nil, nil, c.usageErr("%v", err)
	}
	site, err := protocol.DecodeSiteConfig(siteData)
	if err != nil {
		c.printJSON(verdict{Diagnostic: protocol.AsDiagnostic(err)})
		return nil, nil, exitFailed
	}
	return site, artifact, exitOK
}

func (c protocolCmd) printJSON(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		fmt.Fprintf(c.stderr, "%s: %v\n", c.name, err)
		return
	}
	c.stdout.Write(append(b, '\n'))
}

// readFile reads at most limit+1 bytes of path, so the decoder sees that a
// file is over its limit without the whole file being read.
func readFile(path string, limit int) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readBounded(f, limit)
}

func readBounded(r io.Reader, limit int) ([]byte, error) {
	return io.ReadAll(io.LimitReader(r, int64(limit)+1))
}
