package verify

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// parseJSON decodes one JSON value loosely, numbers as json.Number, and
// refuses trailing data as JSON.parse does. Objects are map[string]any, so
// keys match exactly (a struct would match them case-insensitively).
func parseJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("unexpected data after the JSON value")
	}
	return v, nil
}

// describe names a JSON value's type for a message, with the value when it
// is short and not free text.
func describe(v any) string {
	switch v := v.(type) {
	case nil:
		return "missing or null"
	case string:
		return "the string " + quote(v)
	case json.Number:
		return "the number " + v.String()
	case bool:
		return "the boolean " + strconv.FormatBool(v)
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// show quotes a string value and describes anything else.
func show(v any) string {
	if s, ok := v.(string); ok {
		return quote(s)
	}
	return "(" + describe(v) + ")"
}

// header checks the protocol and version members of a document, and
// returns why they are wrong, or "".
func header(o map[string]any, want string) string {
	_, why := headerVersion(o, want, formatVersion, formatVersion)
	return why
}

// headerVersion checks the protocol and version members of a document
// whose readable versions are oldest to newest, and returns the version,
// or why they are wrong.
func headerVersion(o map[string]any, want string, oldest, newest int) (int, string) {
	if p, ok := o["protocol"].(string); !ok || p != want {
		return 0, fmt.Sprintf("protocol is %s; want %q", describe(o["protocol"]), want)
	}
	n, ok := o["version"].(json.Number)
	if !ok {
		return 0, fmt.Sprintf("version must be the number %s, not %s", versions(oldest, newest), describe(o["version"]))
	}
	for v := oldest; v <= newest; v++ {
		if f, err := n.Float64(); err == nil && f == float64(v) {
			return v, ""
		}
	}
	return 0, fmt.Sprintf("version %s is not supported: this askplane reads %s version %s", n, want, versions(oldest, newest))
}

// versions names a range of versions for a message: "1", "1 or 2", "1 to 3".
func versions(oldest, newest int) string {
	switch {
	case oldest == newest:
		return strconv.Itoa(oldest)
	case newest == oldest+1:
		return fmt.Sprintf("%d or %d", oldest, newest)
	}
	return fmt.Sprintf("%d to %d", oldest, newest)
}

// formatVersion is the one version of every format verify reads, except
// askplane.corpus, which has several (corpusOldest to corpusVersion).
const formatVersion = 1

// validHash reports whether s is "sha256:" and 64 lowercase hex digits.
func validHash(s string) bool {
	h, ok := strings.CutPrefix(s, "sha256:")
	if !ok || len(h) != 64 {
		return false
	}
	for i := 0; i < len(h); i++ {
		if c := h[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// quote quotes s for a message, cut to a readable length.
func quote(s string) string {
	const max = 80
	if r := []rune(s); len(r) > max {
		return strconv.Quote(string(r[:max])) + "…"
	}
	return strconv.Quote(s)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
