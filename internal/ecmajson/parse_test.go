package ecmajson

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestParseFollowsJSONParse(t *testing.T) {
	for _, tc := range []struct {
		in string
		ok bool
	}{
		{`{}`, true}, {`[]`, true}, {` {"a" : [1, -0.5e+3, true, false, null, "x"]} `, true},
		{`{"a":1,}`, false}, {`[1,]`, false}, {`{'a':1}`, false}, {`01`, false}, {`1.`, false},
		{`.5`, false}, {`+1`, false}, {`1e`, false}, {`NaN`, false}, {`"\x"`, false},
		{"\"a\tb\"", false}, {`"\u12"`, false}, {"\ufeff{}", false}, {`{"a":1}{}`, false},
		{`"\ud83d\ude00"`, true}, {`"\ud83d"`, true}, {"\v{}", false}, {`tru`, false}, {``, false},
	} {
		_, ok := Parse([]byte(tc.in))
		if ok != tc.ok {
			t.Errorf("Parse(%q) ok = %v, want %v", tc.in, ok, tc.ok)
		}
		if std := json.Valid([]byte(tc.in)); std != tc.ok {
			t.Errorf("encoding/json disagrees on %q: %v", tc.in, std)
		}
	}
}

func TestParseStrings(t *testing.T) {
	for in, want := range map[string]string{
		`"plain"`:           "plain",
		`"a\"b\\c\/d"`:      `a"b\c/d`,
		`"\b\f\n\r\t"`:      "\b\f\n\r\t",
		`"\u00e9\u2028"`:    "é\u2028",
		`"\ud83d\ude00"`:    "😀",
		`"\ud83d"`:          "\uFFFD", // lone surrogate: cannot live in a Go string
		`"\ude00x"`:         "\uFFFDx",
		"\"bad \xff byte\"": "bad \uFFFD byte",
		"\"\xc3\x28\"":      "\uFFFD(", // one U+FFFD per invalid byte
		`"\ud83d\u0041"`:    "\uFFFDA",
	} {
		v, ok := Parse([]byte(in))
		if !ok || v.Kind != String || v.Str != want {
			t.Errorf("Parse(%q) = %q, %v; want %q", in, v.Str, ok, want)
		}
	}
}

func TestParseKinds(t *testing.T) {
	v, ok := ParseString(`{"n":null,"t":true,"f":false,"x":-2.5,"s":"s","a":[],"o":{}}`)
	if !ok {
		t.Fatal("not parsed")
	}
	for key, want := range map[string]Kind{"n": Null, "t": Bool, "f": Bool, "x": Number, "s": String, "a": Array, "o": Object} {
		if m, ok := v.Member(key); !ok || m.Kind != want {
			t.Errorf("%s: kind %v, want %v", key, m.Kind, want)
		}
	}
	if m, _ := v.Member("t"); !m.IsTrue() {
		t.Error("true is not true")
	}
	if m, _ := v.Member("f"); m.IsTrue() {
		t.Error("false is true")
	}
	if m, _ := v.Member("x"); m.Num != -2.5 {
		t.Errorf("x = %v", m.Num)
	}
	if m, _ := v.Member("a"); m.Items == nil {
		t.Error("an empty array must be non-nil, so it re-encodes as []")
	}
	if _, ok := v.Member("absent"); ok {
		t.Error("absent member found")
	}
	if m, ok := v.Member("s"); !ok || m.Kind != String || m.Str != "s" {
		t.Errorf("Member(s) = %v, %v", m, ok)
	}
	if m, ok := v.Member("n"); !ok || m.Kind != Null {
		t.Errorf("Member(n) = %v, %v", m, ok)
	}
	var nilValue *Value
	if _, ok := nilValue.Member("a"); ok {
		t.Error("nil value has members")
	}
}

func TestParseDuplicateKeyLastWins(t *testing.T) {
	v, ok := Parse([]byte(`{"a":1,"b":2,"a":3}`))
	if !ok {
		t.Fatal("not parsed")
	}
	if m, _ := v.Member("a"); m.Num != 3 {
		t.Errorf("a = %v, want 3", m.Num)
	}
	if _, ok := v.Member("A"); ok {
		t.Error("keys must match case-sensitively")
	}
	var keys []string
	for k := range v.Members() {
		keys = append(keys, k)
	}
	if strings.Join(keys, ",") != "a,b,a" {
		t.Errorf("Members yields %v, want every key in document order", keys)
	}
}

func TestParseDepthBound(t *testing.T) {
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	if _, ok := Parse([]byte(deep(MaxDepth))); !ok {
		t.Errorf("depth %d rejected", MaxDepth)
	}
	if _, ok := Parse([]byte(deep(MaxDepth + 1))); ok {
		t.Errorf("depth %d accepted", MaxDepth+1)
	}
	// A deeply nested unknown member cannot cost unbounded recursion.
	if _, ok := Parse([]byte(strings.Repeat(`{"a":`, 100000))); ok {
		t.Error("unterminated deep input accepted")
	}
}

func TestParseDoesNotAliasInput(t *testing.T) {
	buf := []byte(`{"k":"value"}`)
	v, _ := Parse(buf)
	copy(buf, `{"k":"XXXXX"}`)
	if m, _ := v.Member("k"); m.Str != "value" {
		t.Errorf("string changed with the input buffer: %q", m.Str)
	}
}

// TestParserReuse checks that a Parser gives the same values as Parse
// across texts, including after a failure midway through a container, and
// that values from one text survive parsing the next.
func TestParserReuse(t *testing.T) {
	var p Parser
	first, ok := p.ParseString(`{"a":[1,2,{"b":"x"}],"c":"y"}`)
	if !ok {
		t.Fatal("first text")
	}
	if _, ok := p.ParseString(`{"a":[1,2,{"b":`); ok {
		t.Fatal("truncated text accepted")
	}
	for _, in := range []string{`[true,{"z":null}]`, `{"a":[1,2,{"b":"x"}],"c":"y"}`, `"s"`} {
		got, ok := p.ParseString(in)
		want, wantOK := ParseString(in)
		if ok != wantOK || string(stringify(&got)) != string(stringify(&want)) {
			t.Errorf("Parser(%s) = %s, want %s", in, stringify(&got), stringify(&want))
		}
	}
	if got := string(stringify(&first)); got != `{"a":[1,2,{"b":"x"}],"c":"y"}` {
		t.Errorf("first value changed after reuse: %s", got)
	}
	if len(p.stack) != 0 || p.used != 0 || p.src != "" {
		t.Error("parser keeps state between texts")
	}
	for _, v := range p.stack[:cap(p.stack)] {
		if v.Str != "" || v.Items != nil {
			t.Fatal("scratch space keeps the last text alive")
		}
	}
}

func stringify(v *Value) []byte {
	var w Writer
	w.Value(v)
	return w.Bytes()
}

func BenchmarkParserSmallLines(b *testing.B) {
	line := `{"type":"text","delta":"token 42 of a streamed answer, "}`
	b.Run("Parse", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, ok := ParseString(line); !ok {
				b.Fatal("invalid")
			}
		}
	})
	b.Run("Parser", func(b *testing.B) {
		var p Parser
		b.ReportAllocs()
		for b.Loop() {
			if _, ok := p.ParseString(line); !ok {
				b.Fatal("invalid")
			}
		}
	})
}

// FuzzParse checks the parser never accepts what encoding/json rejects on
// valid UTF-8 input, never panics, and that what it accepts re-serialises
// to text it parses again to the same bytes.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("../../testdata/conformance/*.json")
	for _, name := range files {
		if data, err := os.ReadFile(name); err == nil && len(data) < 64<<10 {
			f.Add(data)
		}
	}
	f.Add([]byte(`{"a":[1,2,{"b":"\u00e9"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, ok := Parse(data)
		if ok {
			out := stringify(&v)
			again, ok := Parse(out)
			if !ok || string(stringify(&again)) != string(out) {
				t.Fatalf("unstable re-serialisation: %s", out)
			}
		}
		if !utf8.Valid(data) || strings.Count(string(data), "[")+strings.Count(string(data), "{") > MaxDepth {
			return
		}
		if std := json.Valid(data); ok != std {
			t.Fatalf("Parse ok=%v, encoding/json valid=%v", ok, std)
		}
	})
}
