package evidence

import (
	"encoding/base64"
	"strings"
	"testing"
)

func TestRecipeRebuildsThePackage(t *testing.T) {
	ix := NewIndex(tiny(t))
	p := ix.Search("How do I verify a build?", Budget{MaxRecords: 3, MaxBytes: 4096})
	frag := p.Recipe().Fragment()
	r, err := DecodeFragment(frag)
	if err != nil {
		t.Fatal(err)
	}
	if r.Version != p.SourceVersion || r.EngineID != EngineID || r.ContextID != p.ContextID {
		t.Fatalf("recipe = %+v", r)
	}
	again := ix.Search(r.Question, Budget{MaxRecords: r.Budget.MaxRecords, MaxBytes: r.Budget.MaxBytes})
	if string(again.JSON()) != string(p.JSON()) {
		t.Fatalf("rebuilt package differs:\n%s\n%s", again.JSON(), p.JSON())
	}
}

func TestDecodeFragmentRefuses(t *testing.T) {
	pkg := NewIndex(tiny(t)).Search("install", Budget{})
	good := pkg.Recipe()
	enc := func(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }
	edit := func(f func(*Recipe)) string { r := good; f(&r); return r.Fragment() }
	cases := map[string]string{
		"empty":         "",
		"too long":      strings.Repeat("A", MaxFragmentLen+1),
		"padding":       good.Fragment() + "=",
		"plus":          "ab+c",
		"bad utf8":      enc("{\"bundle\":\"\xff\"}"),
		"array":         enc("[]"),
		"unknown key":   enc(`{"bundle":"askplane.evidence","extra":1}`),
		"missing keys":  enc(`{"bundle":"askplane.evidence"}`),
		"trailing":      enc(`{}{}`),
		"other bundle":  edit(func(r *Recipe) { r.Bundle = "okf-dwp" }),
		"bad version":   edit(func(r *Recipe) { r.Version = "sha256:XYZ" }),
		"bad context":   edit(func(r *Recipe) { r.ContextID = strings.ToUpper(r.ContextID) }),
		"blank":         edit(func(r *Recipe) { r.Question = " \t" }),
		"long question": edit(func(r *Recipe) { r.Question = strings.Repeat("😀", 1001) }),
		"no engine":     edit(func(r *Recipe) { r.EngineID = "" }),
		"zero records":  edit(func(r *Recipe) { r.Budget.MaxRecords = 0 }),
		"huge bytes":    edit(func(r *Recipe) { r.Budget.MaxBytes = MaxMaxBytes + 1 }),
	}
	for name, frag := range cases {
		if _, err := DecodeFragment(frag); err == nil || !strings.HasPrefix(err.Error(), ErrFragment.Error()) {
			t.Errorf("%s: err = %v", name, err)
		} else if strings.Contains(err.Error(), "okf-dwp") {
			t.Errorf("%s: error quotes the fragment: %v", name, err)
		}
	}
	if _, err := DecodeFragment(edit(func(r *Recipe) { r.Question = strings.Repeat("😀", 1000) })); err != nil {
		t.Errorf("2,000 UTF-16 units refused: %v", err)
	}
}
