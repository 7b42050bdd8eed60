package ecmajson

import (
	"bytes"
	"encoding/json"
	"testing"
	"unicode/utf8"
)

func TestAppendStringMatchesJSONStringify(t *testing.T) {
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
		if got := string(AppendString(nil, in)); got != want {
			t.Errorf("AppendString(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestAppendStringInvalidUTF8(t *testing.T) {
	for in, want := range map[string]string{
		"bad \xff byte":  "\"bad \uFFFD byte\"",
		"\xc3\x28\n":     "\"\uFFFD(\\n\"",
		"\xe2\x82":       "\"\uFFFD\uFFFD\"",
		"é\xffé":         "\"é\uFFFDé\"",
		"\"\xf0\x9f\x99": "\"\\\"\uFFFD\uFFFD\uFFFD\"",
	} {
		got := AppendString(nil, in)
		if string(got) != want {
			t.Errorf("AppendString(%q) = %s, want %s", in, got, want)
		}
		// What is written reads back as Parse reads the raw bytes.
		if v, ok := Parse(got); !ok || !utf8.ValidString(v.Str) {
			t.Errorf("AppendString(%q) does not parse back", in)
		}
	}
}

// TestAppendGoStringMatchesEncodingJSON pins the other spelling to
// encoding/json with HTML escaping off, byte for byte.
func TestAppendGoStringMatchesEncodingJSON(t *testing.T) {
	for _, in := range []string{
		"plain", "q\"b\\s/", "\b\f\n\r\t", "\x00\x01\x1f\x7f", "<script>&amp;</script>",
		"\u2028\u2029 a\u2028b", "é🙂", "bad \xff byte", "\xc3\x28\n", "\xe2\x82", "\ufffd",
	} {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(in); err != nil {
			t.Fatal(err)
		}
		if got := string(AppendGoString(nil, in)); got+"\n" != want.String() {
			t.Errorf("AppendGoString(%q) = %s, want %s", in, got, want.String())
		}
	}
}

func TestAppendNumber(t *testing.T) {
	// Expected values are JSON.stringify(JSON.parse(text)) from Node.js v20.
	for in, want := range map[string]string{
		"0": "0", "-0": "0", "1": "1", "-1": "-1", "0.1": "0.1",
		"1e21": "1e+21", "1e20": "100000000000000000000", "123e-20": "1.23e-18",
		"1e-6": "0.000001", "1e-7": "1e-7", "1.5e-7": "1.5e-7", "5e-324": "5e-324",
		"1.7976931348623157e308": "1.7976931348623157e+308",
		"123456789012345680000":  "123456789012345680000",
		"9007199254740993":       "9007199254740992",
		"0.000001234":            "0.000001234", "100": "100", "1.5": "1.5",
		"-1.5e300": "-1.5e+300", "1E400": "null", "-1e400": "null", "1e-400": "0",
		"0.30000000000000004": "0.30000000000000004", "4.35": "4.35", "25e-8": "2.5e-7",
		"2e-7": "2e-7", "1.2345678901234567e-5": "0.000012345678901234568",
		"1e-5": "0.00001", "-0.0000001": "-1e-7",
	} {
		v, ok := Parse([]byte(in))
		if !ok {
			t.Fatalf("parse %s", in)
		}
		if got := string(AppendNumber(nil, v.Num)); got != want {
			t.Errorf("%s: got %s, want %s", in, got, want)
		}
	}
}

func TestWriterFixedOrder(t *testing.T) {
	w := NewWriter([]byte("x="))
	w.BeginObject()
	w.StringMember("z", "1")
	w.Key("a\"b")
	w.BeginArray()
	w.Int(-3)
	w.Number(1e21)
	w.Bool(true)
	w.Null()
	w.Raw([]byte(`{"r":1}`))
	w.Strings([]string{"s", "t"})
	w.EndArray()
	w.Key("e")
	w.BeginObject()
	w.EndObject()
	w.EndObject()
	want := `x={"z":"1","a\"b":[-3,1e+21,true,null,{"r":1},["s","t"]],"e":{}}`
	if got := string(w.Bytes()); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if !json.Valid(w.Bytes()[2:]) {
		t.Error("invalid JSON")
	}
}

func TestWriterValueIsStringifyOfParse(t *testing.T) {
	// Expected values are JSON.stringify(JSON.parse(text)) in ECMAScript:
	// own-key order puts array indices first, a repeated key keeps its
	// first position and last value, and numbers take Number form.
	for in, want := range map[string]string{
		`{"b":1,"a":2,"b":3}`:                   `{"b":3,"a":2}`,
		`{"x":1,"10":2,"2":3,"01":4,"-1":5}`:    `{"2":3,"10":2,"x":1,"01":4,"-1":5}`,
		`{"4294967294":1,"4294967295":2,"0":3}`: `{"0":3,"4294967294":1,"4294967295":2}`,
		`[1.0, 1e2, -0, "\u003c\/"]`:            `[1,100,0,"</"]`,
		` { "a" : [ { } , [ ] , null ] } `:      `{"a":[{},[],null]}`,
	} {
		v, ok := ParseString(in)
		if !ok {
			t.Fatalf("parse %s", in)
		}
		if got := string(stringify(&v)); got != want {
			t.Errorf("%s: got %s, want %s", in, got, want)
		}
	}
}

func TestOwnMembersManyKeys(t *testing.T) {
	// More than eight members take the map path; it must agree with the
	// linear one.
	v, _ := ParseString(`{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k0":"last","3":"i"}`)
	want := `{"3":"i","k0":"last","k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8}`
	if got := string(stringify(&v)); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if (&Value{Kind: Array}).OwnMembers() != nil {
		t.Error("an array has no own members here")
	}
}
