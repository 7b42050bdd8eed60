package protocol

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestParseJSONFollowsJSONParse(t *testing.T) {
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
		_, ok := parseJSON([]byte(tc.in))
		if ok != tc.ok {
			t.Errorf("parseJSON(%q) ok = %v, want %v", tc.in, ok, tc.ok)
		}
		if std := json.Valid([]byte(tc.in)); std != tc.ok {
			t.Errorf("encoding/json disagrees on %q: %v", tc.in, std)
		}
	}
}

func TestParseJSONStrings(t *testing.T) {
	for in, want := range map[string]string{
		`"plain"`:           "plain",
		`"a\"b\\c\/d"`:      `a"b\c/d`,
		`"\b\f\n\r\t"`:      "\b\f\n\r\t",
		`"\u00e9\u2028"`:    "é\u2028",
		`"\ud83d\ude00"`:    "😀",
		`"\ud83d"`:          "\uFFFD", // lone surrogate: cannot live in a Go string
		`"\ude00x"`:         "\uFFFDx",
		"\"bad \xff byte\"": "bad \uFFFD byte",
		`"\ud83d\u0041"`:    "\uFFFDA",
	} {
		v, ok := parseJSON([]byte(in))
		if !ok || v.kind != jsonString || v.str != want {
			t.Errorf("parseJSON(%q) = %q, %v; want %q", in, v.str, ok, want)
		}
	}
}

func TestParseJSONDuplicateKeyLastWins(t *testing.T) {
	v, ok := parseJSON([]byte(`{"a":1,"b":2,"a":3}`))
	if !ok {
		t.Fatal("not parsed")
	}
	if m, _ := v.member("a"); m.num != 3 {
		t.Errorf("a = %v, want 3", m.num)
	}
	if _, ok := v.member("A"); ok {
		t.Error("keys must match case-sensitively")
	}
}

func TestParseJSONDepthBound(t *testing.T) {
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	if _, ok := parseJSON([]byte(deep(MaxJSONDepth))); !ok {
		t.Errorf("depth %d rejected", MaxJSONDepth)
	}
	if _, ok := parseJSON([]byte(deep(MaxJSONDepth + 1))); ok {
		t.Errorf("depth %d accepted", MaxJSONDepth+1)
	}
	// A deeply nested unknown member cannot cost unbounded recursion.
	if _, ok := parseJSON([]byte(strings.Repeat(`{"a":`, 100000))); ok {
		t.Error("unterminated deep input accepted")
	}
}

func TestAppendJSONStringMatchesJSONStringify(t *testing.T) {
	// Expected bytes are what ECMAScript JSON.stringify produces.
	for in, want := range map[string]string{
		"plain":                  `"plain"`,
		"q\"b\\s/":               `"q\"b\\s/"`,
		"\b\f\n\r\t":             `"\b\f\n\r\t"`,
		"\x00\x01\x1f\x7f":       `"\u0000\u0001\u001f` + "\x7f\"",
		"<script>&amp;</script>": `"<script>&amp;</script>"`,
		"\u2028\u2029":           "\"\u2028\u2029\"",
		"é🙂":                     `"é🙂"`,
		"\x0b\x0e":               `"\u000b\u000e"`,
	} {
		if got := string(AppendJSONString(nil, in)); got != want {
			t.Errorf("AppendJSONString(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestTruncateUTF16(t *testing.T) {
	for _, tc := range []struct {
		in   string
		max  int
		want string
	}{
		{"abc", 2, "ab"}, {"abc", 5, "abc"}, {"a🙂b", 2, "a"}, {"a🙂b", 3, "a🙂"}, {"ééé", 2, "éé"}, {"", 0, ""},
	} {
		if got := TruncateUTF16(tc.in, tc.max); got != tc.want {
			t.Errorf("TruncateUTF16(%q, %d) = %q, want %q", tc.in, tc.max, got, tc.want)
		}
	}
	if n := UTF16Len("a🙂é"); n != 4 {
		t.Errorf("UTF16Len = %d, want 4", n)
	}
}

func TestTrimUsesECMAScriptWhitespace(t *testing.T) {
	for in, want := range map[string]string{
		"\ufeff x \u3000":     "x",
		"\u0085x\u0085":       "\u0085x\u0085", // NEL is not ECMAScript whitespace
		"\u200bx":             "\u200bx",
		"\u180ex":             "\u180ex",
		"\u2028\u2029x\u00a0": "x",
		" ":                   "",
	} {
		if got := Trim(in); got != want {
			t.Errorf("Trim(%+q) = %+q, want %+q", in, got, want)
		}
	}
}

func jsonValid(data []byte) bool { return json.Valid(data) }
