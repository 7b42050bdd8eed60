package contract

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestScan(t *testing.T) {
	l := JSONLimits{MaxBytes: 200, MaxDepth: 3, MaxStringBytes: 8, MaxItems: 3}
	for _, c := range []struct {
		doc  string
		code Code // "" accepted
	}{
		{`{}`, ""},
		{`"x"`, ""},
		{` [1, 2.5e3, true, null] `, CodeOutputTooLarge}, // four items
		{`[1,2,3]`, ""},
		{`{"a":{"b":[1]}}`, ""},
		{`{"a":{"b":[[1]]}}`, CodeOutputTooLarge},     // depth 4
		{`[{"a":1},{"a":2}]`, ""},                     // same name, different objects
		{`{"a":{"a":1}}`, ""},                         // same name, nested
		{`{"a":1,"b":{},"a":2}`, CodeOutputMalformed}, // duplicate after a nested value
		{`{"a":1,"b":2,"c":3,"d":4}`, CodeOutputTooLarge},
		{`{"abcdefghi":1}`, CodeOutputTooLarge}, // member name over 8 bytes
		{`["abcdefghi"]`, CodeOutputTooLarge},
		{`["\u00e9\u00e9\u00e9\u00e9"]`, ""}, // 8 bytes once unescaped
		{`["\u00e9\u00e9\u00e9\u00e9\u00e9"]`, CodeOutputTooLarge},
		{``, CodeOutputMalformed},
		{`{`, CodeOutputMalformed},
		{`{"a"}`, CodeOutputMalformed},
		{`{"a":1}}`, CodeOutputMalformed},
		{`1 2`, CodeOutputMalformed},
		{`[1,]`, CodeOutputMalformed},
		{"[\"\xc3\"]", CodeOutputMalformed},
		{`"` + strings.Repeat("a", 200) + `"`, CodeOutputTooLarge},
	} {
		err := scan([]byte(c.doc), l, outputCodes)
		switch {
		case c.code == "" && err != nil:
			t.Errorf("%s: %v", c.doc, err)
		case c.code != "" && (err == nil || err.Code != c.code):
			t.Errorf("%s: %v, want %s", c.doc, err, c.code)
		}
	}
}

// Whatever scan accepts is one valid JSON document.
func FuzzScan(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":[1,{"b":"c"}]}`, `{"a":1,"a":2}`, `[1,]`, `"\ud800"`, "\"\xff\"", `1 2`, `{"a":{"b":[[]]}}`} {
		f.Add(s)
	}
	l := JSONLimits{MaxBytes: 4096, MaxDepth: 8, MaxStringBytes: 256, MaxItems: 64}
	f.Fuzz(func(t *testing.T, s string) {
		err := scan([]byte(s), l, outputCodes)
		if err == nil && !json.Valid([]byte(s)) {
			t.Fatalf("scan accepted invalid JSON %q", s)
		}
	})
}
