package hugomodule_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/protocol"
	"github.com/askplane/askplane/internal/sitetest"
)

// TestAdversarialValuesHashLikeGo declares facts full of characters that
// escape differently in Go, HTML and ECMAScript, values padded with
// whitespace only ECMAScript trims, and every maximum size; the artifact
// Hugo builds must verify and equal Go's bytes exactly.
func TestAdversarialValuesHashLikeGo(t *testing.T) {
	var c0 strings.Builder
	for r := rune(0); r < 0x20; r++ {
		c0.WriteRune(r)
	}
	pad := func(s string) string { return "\u3000\ufeff\t\n " + s + " \n\t\u00a0\u2028" }
	facts := []map[string]any{
		{
			"id": "escapes", "kind": "command", "label": pad(`quote " backslash \ slash / <>& DEL` + "\x7f"),
			"match":  []string{pad(`say "hi"`), `back\slash`, "<b>&amp;</b>", "line\u2028sep\u2029para"},
			"answer": "C0:" + c0.String() + " LS:\u2028 PS:\u2029 runs:\u2028\u2028\u2029\u2028\u2029 escaped:\\u2028 backslash-then-LS:\\\u2028 </script><script>alert(1)</script> end",
			"cite":   []map[string]string{{"title": "</title>\u2028", "href": "/docs/esc?a=1&b=<2>"}},
		},
		{
			"id": "unicode", "kind": "ecosystem", "label": "Emoji 🙂 and 𝐀 and 家族👨‍👩‍👧",
			"match":  []string{"ＩＮＳＴＡＬＬ ｃｌｉ", "ﬁle path", "İstanbul", "ΟΔΥΣΣΕΥΣ", "Ⅻ", "\u212a"},
			"answer": strings.Repeat("🙂", 20) + " 𠜎 e\u0301",
		},
		{
			"id": "maximums", "kind": "document", "label": strings.Repeat("L", 254) + "🙂",
			"match":  maxPhrasings(),
			"answer": strings.Repeat("M", 16384),
			"cite":   maxCitations(),
		},
	}
	front, _ := json.Marshal(map[string]any{"title": "Adversarial", "date": "2026-07-13", "askplane": map[string]any{"facts": facts}})
	b := sitetest.Build(t, sitetest.Layouts+`
-- hugo.toml --
title = "Adversarial"
disableKinds = ["taxonomy", "term", "rss", "sitemap"]
[params.askplane]
lifetime = "720h"
-- content/adversarial.md --
`+string(front)+`
Body.
`)
	p := outputs(t, b, "en")
	a := p.verified(t)
	if a.ExpiresAt != "2026-08-12T00:00:00.000Z" {
		t.Errorf("expiresAt = %q", a.ExpiresAt)
	}
	esc := a.Entries[0]
	if esc.ID != "escapes" || esc.Label != `quote " backslash \ slash / <>& DEL`+"\x7f" || esc.Values[0] != `say "hi"` {
		t.Errorf("values were not trimmed the ECMAScript way: %+q %+q", esc.Label, esc.Values[0])
	}
	if h, err := protocol.ComputeContentHash(p.artifact); err != nil || h != a.ContentHash {
		t.Errorf("ComputeContentHash = %s, %v", h, err)
	}
}

func maxPhrasings() []string {
	out := make([]string, protocol.MaxAliases)
	for i := range out {
		out[i] = fmt.Sprintf("%02d", i) + strings.Repeat("x", protocol.MaxAliasLen-2)
	}
	return out
}

func maxCitations() []map[string]string {
	out := make([]map[string]string, protocol.MaxCitations)
	for i := range out {
		out[i] = map[string]string{"title": strings.Repeat("T", protocol.MaxTitleLen), "href": "/" + strings.Repeat("h", protocol.MaxHrefLen-1)}
	}
	return out
}
