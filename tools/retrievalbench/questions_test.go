package retrievalbench

import (
	"math"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/sitetest"
)

// The labelled question files are well-formed (nuggets included) and
// large enough, every question has nuggets, and every page they label is
// a page the built site publishes. This is the cheap
// part of the retrieval benchmark that CI runs; the benchmark itself is
// scripts/bench-retrieval.sh.
func TestQuestionFiles(t *testing.T) {
	type file struct {
		name string
		min  int
	}
	// Each site is built once for all the files labelled over it.
	for _, tc := range []struct {
		site  string
		files []file
	}{
		{"exampleSite", []file{{"examplesite-en.json", 80}}},
		{"testdata/retrieval/lighthouse", []file{{"lighthouse-en.json", 30}}},
		{"testdata/retrieval/docsy", []file{
			{"docsy-en.json", 60}, {"docsy-heldout-en.json", 50}, {"docsy-blind2-en.json", 40},
			{"docsy-blind3-en.json", 40}, {"docsy-blind4-en.json", 40}, {"docsy-blind5-en.json", 40},
			{"docsy-blind6-en.json", 40},
			{"docsy-blind7-en.json", 40},
			{"docsy-blind8-en.json", 40},
			{"docsy-blind9-en.json", 40},
			{"docsy-blind10-en.json", 40},
			{"docsy-blind11-en.json", 40},
		}},
		// rclone's docs with their own theme, fetched at a pinned version.
		{"rclone", []file{
			{"rclone-blind1-en.json", 40}, {"rclone-blind2-en.json", 40},
			{"rclone-blind3-en.json", 40}, {"rclone-blind4-en.json", 40}, {"rclone-blind5-en.json", 40},
			{"rclone-blind6-en.json", 40},
			{"rclone-blind7-en.json", 40},
			{"rclone-blind8-en.json", 40},
			{"rclone-blind9-en.json", 40},
		}},
	} {
		t.Run(tc.site, func(t *testing.T) {
			public := ""
			if !testing.Short() {
				dir := filepath.Join(sitetest.Root(), filepath.FromSlash(tc.site))
				if tc.site == "rclone" {
					dir = filepath.Join(t.TempDir(), "rclone")
					out, err := exec.Command("bash", filepath.Join(sitetest.Root(), "scripts", "rclone-docs.sh"), dir).CombinedOutput()
					if err != nil {
						t.Fatalf("rclone-docs.sh: %v\n%s", err, out)
					}
				}
				b, err := sitetest.BuildDir(t, dir)
				if err != nil {
					t.Fatalf("hugo: %v\n%s", err, b.Output)
				}
				public = b.Public
			}
			for _, fc := range tc.files {
				t.Run(fc.name, func(t *testing.T) {
					f, err := Load(filepath.Join(sitetest.Root(), "testdata", "retrieval", fc.name))
					if err != nil {
						t.Fatal(err)
					}
					if len(f.Questions) < fc.min {
						t.Errorf("%d questions, want at least %d", len(f.Questions), fc.min)
					}
					if without := f.WithoutNuggets(); len(without) > 0 {
						t.Errorf("%d questions without nuggets: %q", len(without), without)
					}
					if src := f.Source; src != "" && src != tc.site {
						t.Errorf("source %q, want %q", src, tc.site)
					}
					if public == "" {
						t.Skip("builds the site with Hugo")
					}
					if missing := f.MissingPages(public); len(missing) > 0 {
						t.Errorf("labelled pages the built site does not publish: %v", missing)
					}
				})
			}
		})
	}
}

func TestValidate(t *testing.T) {
	ok := File{Site: "s", Language: "en", Questions: []Question{{Q: "how?", Pages: []string{"/a/"}, Kind: "howto"}}}
	if err := ok.Validate(); err != nil {
		t.Fatalf("valid file: %v", err)
	}
	for name, q := range map[string]Question{
		"untrimmed":     {Q: " how?", Pages: []string{"/a/"}, Kind: "howto"},
		"no pages":      {Q: "how?", Kind: "howto"},
		"unknown kind":  {Q: "how?", Pages: []string{"/a/"}, Kind: "faq"},
		"no slash":      {Q: "how?", Pages: []string{"/a"}, Kind: "howto"},
		"fragment":      {Q: "how?", Pages: []string{"/a/#b/"}, Kind: "howto"},
		"page twice":    {Q: "how?", Pages: []string{"/a/", "/a/"}, Kind: "howto"},
		"relative page": {Q: "how?", Pages: []string{"a/"}, Kind: "howto"},
	} {
		f := ok
		f.Questions = []Question{q}
		if f.Validate() == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	twice := ok
	twice.Questions = append(twice.Questions, Question{Q: "How?", Pages: []string{"/b/"}, Kind: "what"})
	if twice.Validate() == nil {
		t.Error("a question asked twice: accepted")
	}
}

func TestValidateNuggets(t *testing.T) {
	q := func(nuggets ...Nugget) File {
		return File{Site: "s", Language: "en", Questions: []Question{{Q: "How do I update the module?", Pages: []string{"/a/"}, Kind: "howto", Nuggets: nuggets}}}
	}
	for name, f := range map[string]File{
		"none":         q(),
		"one":          q(Nugget{"hugo mod get -u"}),
		"alternatives": q(Nugget{"hugo mod get", "`hugo mod get -u`"}, Nugget{"go.mod"}),
		"three":        q(Nugget{"hugo"}, Nugget{"get"}, Nugget{"-u"}),
	} {
		if err := f.Validate(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	empty := q()
	empty.Questions[0].Nuggets = []Nugget{}
	for name, f := range map[string]File{
		"empty list":       empty,
		"four":             q(Nugget{"hugo"}, Nugget{"get"}, Nugget{"-u"}, Nugget{"go.mod"}),
		"no alternatives":  q(Nugget{}),
		"empty":            q(Nugget{"hugo", ""}),
		"only backticks":   q(Nugget{"``"}),
		"untrimmed":        q(Nugget{"hugo "}),
		"too short":        q(Nugget{"u"}),
		"too long":         q(Nugget{strings.Repeat("x", MaxAlternative+1)}),
		"in the question":  q(Nugget{"hugo mod get"}, Nugget{"The   Module"}),
		"backticked there": q(Nugget{"`update`"}),
		"twice":            q(Nugget{"hugo", "Hugo"}),
	} {
		if f.Validate() == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestMissedNuggets(t *testing.T) {
	nuggets := []Nugget{{"hugo mod get -u", "hugo mod tidy"}, {"go.mod"}, {"Params.askplane"}}
	for answer, want := range map[string][]int{
		"Run `hugo mod get -u` and commit go.mod and `site.params.askplane`.": nil,
		"Run\n```sh\nhugo   mod\n  tidy\n```\nthen GO.MOD":                    {2},
		"":                     {0, 1, 2},
		"hugo mod get without": {0, 1, 2},
		"Set “params.askplane” in GO.MOD’s hugo mod tidy": nil,
	} {
		if got := MissedNuggets(answer, nuggets); !slices.Equal(got, want) {
			t.Errorf("MissedNuggets(%q) = %v, want %v", answer, got, want)
		}
	}
	if got := MissedNuggets("Set darkMode to “dark”, the reader’s choice", []Nugget{{`"dark"`}, {"reader's"}}); got != nil {
		t.Errorf("typographic quotes: missed %v", got)
	}
}

func TestNuggetScore(t *testing.T) {
	s := &System{Answers: &AnswerChecks{}}
	nuggets := []Nugget{{"alpha"}, {"beta"}}
	s.add(Question{Kind: "what", Nuggets: nuggets}, Outcome{Answer: "alpha and beta"})
	s.add(Question{Kind: "what", Nuggets: nuggets}, Outcome{Answer: "alpha only, a longer answer"})
	s.add(Question{Kind: "howto", Nuggets: nuggets}, Outcome{Error: "ASK_NO_GROUNDED_SOURCES"})
	s.add(Question{Kind: "howto"}, Outcome{Answer: "no nuggets here"})
	if n := s.Nuggets; n.N != 3 || n.All != 1 || n.Parts != 6 || n.PartsHeld != 3 || n.Answerless != 1 {
		t.Errorf("nuggets %+v", n)
	}
	if n := s.NuggetsByKind["what"]; n.N != 2 || n.All != 1 {
		t.Errorf("what: %+v", n)
	}
	if got := s.Results[1].Missed; !slices.Equal(got, []int{1}) {
		t.Errorf("missed %v", got)
	}
	// lengths 14, 27 and 15; the refusal is left out
	if got := s.MedianChars(); got != 15 {
		t.Errorf("median %d, want 15", got)
	}
	if got := medianChars([]Outcome{{Answer: "ab"}, {Answer: "abcd"}}); got != 3 {
		t.Errorf("median of two %d, want 3", got)
	}
}

func TestScore(t *testing.T) {
	want := []string{"/a/", "/b/"}
	var s Score
	for _, got := range [][]string{{"/a/"}, {"/x/", "/b/"}, {"/x/", "/y/", "/z/", "/w/", "/a/"}, {"/x/"}, nil} {
		s.Add(Rank(got, want))
	}
	if s.N != 5 || s.Hit1 != 1 || s.Hit3 != 2 || s.Hit5 != 3 {
		t.Errorf("score %+v", s)
	}
	if mrr, want := s.MRR(), (1+0.5+0.2)/5; math.Abs(mrr-want) > 1e-12 {
		t.Errorf("MRR %v, want %v", mrr, want)
	}
}

func TestPagePath(t *testing.T) {
	for in, want := range map[string]string{
		"/a/b/":                    "/a/b/",
		"/a/b/#usage":              "/a/b/",
		"/a/b":                     "/a/b/",
		"/a/b/index.html":          "/a/b/",
		"https://x.example/a/b/?q": "/a/b/",
		"https://x.example":        "/",
	} {
		if got := pagePath(in); got != want {
			t.Errorf("pagePath(%q) = %q, want %q", in, got, want)
		}
	}
	if got := distinctPages([]string{"/a/#x", "/b/", "/a/#y"}); len(got) != 2 || got[0] != "/a/" || got[1] != "/b/" {
		t.Errorf("distinctPages = %v", got)
	}
}

func TestAnswerChecks(t *testing.T) {
	block := `hugo mod get -u github.com/askplane/askplane`
	if part, cut := quotes("Run "+block+" now.", block); !part || cut {
		t.Error("whole block not seen")
	}
	if part, cut := quotes("Run hugo mod get -u github.com/askplane/ask", block); !part || !cut {
		t.Error("a block cut at its end not seen as cut")
	}
	if part, cut := quotes("get -u github.com/askplane/askplane, then", block); !part || !cut {
		t.Error("a block cut at its start not seen as cut")
	}
	if part, cut := quotes("the path -u github.com/askplane/ask is", block); !part || cut {
		t.Error("a stretch from the middle of a block counted as a cut")
	}
	if part, _ := quotes("Run hugo now.", block); part {
		t.Error("a short overlap counted as quoting")
	}
	for text, want := range map[string]bool{
		`{{ partial "x.html" . }}`:  false,
		`{{ with site.Params.x }}`:  false,
		`{{ define "main" }} <art`:  false,
		`… <script src="{{ .src`:    true,
		`{{ a }} and then {{ range`: true,
	} {
		if got := openTemplate(text); got != want {
			t.Errorf("openTemplate(%q) = %v", text, got)
		}
	}
	for text, want := range map[string]bool{
		"Front matter like this: --- title: Intro date: 2026": true,
		"+++ title = \"Configure search\" weight = 20 +++":    true,
		"A long dash --- and nothing after":                   false,
		"Run hugo --minify":                                   false,
	} {
		if got := frontMatter.MatchString(text); got != want {
			t.Errorf("frontMatter(%q) = %v", text, got)
		}
	}
}

// Run measures the evidence and the sidecar's cited pages on a small
// built site (Pagefind, which needs node, is left to the script).
func TestRunWithoutPagefind(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the site with Hugo")
	}
	f, err := Load(filepath.Join(sitetest.Root(), "testdata", "retrieval", "lighthouse-en.json"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := sitetest.BuildDir(t, filepath.Join(sitetest.Root(), "testdata", "retrieval", "lighthouse"))
	if err != nil {
		t.Fatalf("hugo: %v\n%s", err, b.Output)
	}
	rep, err := Run(t.Context(), Options{Public: b.Public, File: f, Engines: Engines})
	if err != nil {
		t.Fatal(err)
	}
	if want := len(Engines)*(1+len(Generators)) + 1; len(rep.Systems) != want {
		t.Fatalf("%d systems, want %d: evidence and cited per generator per engine, and the sidecar", len(rep.Systems), want)
	}
	for _, s := range rep.Systems {
		if s.Score.N != len(f.Questions) || len(s.Results) != len(f.Questions) {
			t.Errorf("%s: %d questions scored, want %d", s.Name, s.Score.N, len(f.Questions))
		}
		if s.Score.Hit5 == 0 {
			t.Errorf("%s found no labelled page at all", s.Name)
		}
	}
	if a := rep.Systems[1].Answers; a == nil || a.Answered == 0 {
		t.Errorf("cited system: answer checks %+v", a)
	}
	for _, s := range rep.Systems {
		if s.Answers != nil && s.Nuggets.N != len(f.Questions)-len(f.WithoutNuggets()) {
			t.Errorf("%s: %d questions scored against nuggets", s.Name, s.Nuggets.N)
		}
	}
}
