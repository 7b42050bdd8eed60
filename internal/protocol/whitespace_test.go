package protocol

import "testing"

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
