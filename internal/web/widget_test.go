package web_test

import (
	"bytes"
	"context"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/a-h/templ"
	"golang.org/x/net/html"

	"github.com/askplane/askplane/internal/web"
)

// renderMarkup renders the widget's markup as a reader's page ends up with
// it: the launcher every page carries, then the panel the loader fetches.
func renderMarkup(t *testing.T, vm web.WidgetView) *bytes.Buffer {
	t.Helper()
	var buf bytes.Buffer
	for _, c := range []templ.Component{web.Launcher(vm), web.Panel(vm)} {
		if err := c.Render(context.Background(), &buf); err != nil {
			t.Fatal(err)
		}
	}
	return &buf
}

// renderWidget renders the widget's markup and parses it the way a
// browser does (template contents become the template element's
// children).
func renderWidget(t *testing.T, vm web.WidgetView) *html.Node {
	t.Helper()
	doc, err := html.Parse(renderMarkup(t, vm))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func attr(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

func has(n *html.Node, key string) bool { _, ok := attr(n, key); return ok }

// all returns the element nodes under n (n included) that match.
func all(n *html.Node, match func(*html.Node) bool) []*html.Node {
	var out []*html.Node
	for d := range n.Descendants() {
		if d.Type == html.ElementNode && match(d) {
			out = append(out, d)
		}
	}
	if n.Type == html.ElementNode && match(n) {
		out = append([]*html.Node{n}, out...)
	}
	return out
}

// hook returns the elements under n carrying data-askplane-<name>, outside
// templates unless n is itself inside one.
func hook(n *html.Node, name string) []*html.Node {
	return all(n, func(e *html.Node) bool { return has(e, "data-askplane-"+name) && !inTemplateBelow(e, n) })
}

// inTemplateBelow reports whether e sits in a template element below root.
func inTemplateBelow(e, root *html.Node) bool {
	for p := e.Parent; p != nil && p != root; p = p.Parent {
		if p.Type == html.ElementNode && p.Data == "template" {
			return true
		}
	}
	return false
}

func one(t *testing.T, n *html.Node, name string) *html.Node {
	t.Helper()
	got := hook(n, name)
	if len(got) != 1 {
		t.Fatalf("data-askplane-%s: %d elements; want 1", name, len(got))
	}
	return got[0]
}

func text(n *html.Node) string {
	var b strings.Builder
	for d := range n.Descendants() {
		if d.Type == html.TextNode {
			b.WriteString(d.Data)
		}
	}
	return strings.TrimSpace(b.String())
}

// templates returns the widget's templates by name.
func templates(t *testing.T, doc *html.Node) map[string]*html.Node {
	t.Helper()
	out := map[string]*html.Node{}
	for _, tpl := range all(doc, func(e *html.Node) bool { return e.Data == "template" }) {
		name, ok := attr(tpl, "data-askplane-template")
		if !ok {
			t.Errorf("a template without data-askplane-template")
		}
		if out[name] != nil {
			t.Errorf("template %q twice", name)
		}
		out[name] = tpl
	}
	return out
}

func TestWidgetShellHooks(t *testing.T) {
	doc := renderWidget(t, web.EnglishWidget())
	shell := one(t, doc, "shell")
	if lang, _ := attr(shell, "lang"); lang != web.LangMarker {
		t.Errorf("shell lang = %q", lang)
	}
	for _, h := range []string{"launcher", "panel", "close", "form", "input", "submit", "hint", "status", "log", "empty"} {
		one(t, doc, h)
	}
	if stops := hook(doc, "stop"); len(stops) != 1 || !has(stops[0], "hidden") {
		t.Errorf("the form's stop button must exist once, hidden until a request runs")
	}
	if !has(one(t, doc, "panel"), "hidden") {
		t.Error("the panel must start closed (hidden)")
	}
	form := one(t, doc, "form")
	for _, h := range []string{"input", "submit", "stop", "hint"} {
		if len(hook(form, h)) != 1 {
			t.Errorf("data-askplane-%s is not in the form", h)
		}
	}
	if _, ok := attr(form, "action"); ok {
		t.Error("the form must not have an action: the JS handles submit")
	}
}

func TestWidgetTemplates(t *testing.T) {
	doc := renderWidget(t, web.EnglishWidget())
	tpls := templates(t, doc)
	want := map[string][]string{
		"question": {"question-text"},
		"answer":   {"answer", "markdown", "sources-block", "sources", "provenance"},
		"source":   {"source", "source-link"},
		"choices":  {"choices", "choice-list"},
		"choice":   {"choice"},
		"offline":  {"offline"},
		"stream":   {"stream", "progress", "markdown", "sources-block", "sources", "stop", "evidence", "evidence-link", "provenance"},
		"error":    {"error", "error-text"},
		"code":     {"copy"},
		"messages": {"messages"},
	}
	var names []string
	for name := range tpls {
		names = append(names, name)
	}
	var wantNames []string
	for name := range want {
		wantNames = append(wantNames, name)
	}
	slices.Sort(names)
	slices.Sort(wantNames)
	if !slices.Equal(names, wantNames) {
		t.Fatalf("templates %v; want %v", names, wantNames)
	}
	for name, hooks := range want {
		tpl := tpls[name]
		var kids int
		for c := tpl.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode {
				kids++
			} else if c.Type == html.TextNode && strings.TrimSpace(c.Data) != "" {
				t.Errorf("template %s has loose text %q", name, c.Data)
			}
		}
		if kids != 1 {
			t.Errorf("template %s has %d root elements; want 1 (the JS clones firstElementChild)", name, kids)
		}
		for _, h := range hooks {
			if got := len(hook(tpl, h)); got != 1 {
				t.Errorf("template %s: data-askplane-%s × %d; want 1", name, h, got)
			}
		}
		if ids := all(tpl, func(e *html.Node) bool { return has(e, "id") }); len(ids) > 0 {
			t.Errorf("template %s holds an id; clones would duplicate it", name)
		}
	}

	// Offline: one hidden explanation per reason a question no backend
	// answers may carry. No template explains an escalation the backend
	// answers: its answer is the reader's, not a notice.
	if tpls["escalation"] != nil {
		t.Error(`an "escalation" template: a backend answer needs no notice before it`)
	}
	var reasons []string
	for _, e := range all(tpls["offline"], func(e *html.Node) bool { return has(e, "data-askplane-reason-text") }) {
		r, _ := attr(e, "data-askplane-reason-text")
		reasons = append(reasons, r)
		if !has(e, "hidden") || text(e) == "" {
			t.Errorf("reason %s: must be hidden and non-empty", r)
		}
	}
	if !slices.Equal(reasons, []string{"offline", "stale", "corrupt"}) {
		t.Errorf("reasons = %v", reasons)
	}

	// The stream starts busy, its sources and evidence hidden.
	stream := one(t, tpls["stream"], "stream")
	if busy, _ := attr(stream, "aria-busy"); busy != "true" {
		t.Errorf("stream aria-busy = %q", busy)
	}
	for _, h := range []string{"sources-block", "evidence"} {
		if !has(one(t, tpls["stream"], h), "hidden") {
			t.Errorf("stream: data-askplane-%s must start hidden", h)
		}
	}
	if has(one(t, tpls["answer"], "sources-block"), "hidden") {
		t.Error("answer: sources must show by default")
	}

	// Links start without href: the JS sets it through the safe-link rule.
	for name, tpl := range tpls {
		for _, a := range all(tpl, func(e *html.Node) bool { return e.Data == "a" }) {
			if has(a, "href") {
				t.Errorf("template %s: a link with a static href", name)
			}
		}
	}

	// Messages: one per key, none empty.
	var keys []string
	for _, m := range all(tpls["messages"], func(e *html.Node) bool { return has(e, "data-askplane-message") }) {
		k, _ := attr(m, "data-askplane-message")
		keys = append(keys, k)
		if text(m) == "" {
			t.Errorf("message %s is empty", k)
		}
	}
	if !slices.Equal(keys, web.MessageKeys) {
		t.Errorf("message keys %v; want %v", keys, web.MessageKeys)
	}
}

func TestWidgetAccessibility(t *testing.T) {
	doc := renderWidget(t, web.EnglishWidget())
	ids := map[string]*html.Node{}
	for _, e := range all(doc, func(e *html.Node) bool { return has(e, "id") }) {
		id, _ := attr(e, "id")
		if ids[id] != nil {
			t.Errorf("id %q twice", id)
		}
		ids[id] = e
	}
	// Every reference names an element that exists.
	for _, key := range []string{"for", "aria-labelledby", "aria-describedby", "aria-controls"} {
		for _, e := range all(doc, func(e *html.Node) bool { return has(e, key) }) {
			v, _ := attr(e, key)
			for _, id := range strings.Fields(v) {
				if ids[id] == nil {
					t.Errorf("<%s %s=%q>: no element has that id", e.Data, key, id)
				}
			}
		}
	}

	input := one(t, doc, "input")
	id, _ := attr(input, "id")
	labels := all(doc, func(e *html.Node) bool { v, _ := attr(e, "for"); return e.Data == "label" && v == id })
	if len(labels) != 1 || text(labels[0]) == "" {
		t.Error("the input needs one visible label")
	}
	if d, _ := attr(input, "aria-describedby"); ids[d] != one(t, doc, "hint") {
		t.Error("the input must be described by the hint")
	}
	if typ, _ := attr(input, "type"); typ != "text" {
		t.Errorf("input type %q", typ)
	}
	if ml, _ := attr(input, "maxlength"); ml != "512" {
		t.Errorf("input maxlength %q; want the protocol's 512", ml)
	}

	status := one(t, doc, "status")
	if r, _ := attr(status, "role"); r != "status" {
		t.Errorf("status role %q", r)
	}
	if l, _ := attr(status, "aria-live"); l != "polite" {
		t.Errorf("status aria-live %q", l)
	}

	launcher, panel := one(t, doc, "launcher"), one(t, doc, "panel")
	// The page carries the launcher without the panel, which the loader
	// fetches on intent: it sets aria-controls to the panel's id then, so
	// the attribute never names a missing element.
	if c, ok := attr(launcher, "aria-controls"); ok {
		t.Errorf("the launcher names aria-controls %q before the panel is in the page", c)
	}
	if panel == nil || ids["askplane-panel"] != panel {
		t.Error("the panel must have the id askplane-panel, which the loader names in aria-controls")
	}
	if e, _ := attr(launcher, "aria-expanded"); e != "false" {
		t.Errorf("launcher aria-expanded %q", e)
	}
	if l, _ := attr(panel, "aria-labelledby"); ids[l] == nil || !strings.HasPrefix(ids[l].Data, "h") {
		t.Error("the panel must be labelled by its heading")
	}

	// Buttons are buttons, with a type and an accessible name.
	for _, b := range all(doc, func(e *html.Node) bool { return e.Data == "button" }) {
		typ, _ := attr(b, "type")
		if typ != "button" && typ != "submit" {
			t.Errorf("button %v: type %q", b.Attr, typ)
		}
		label, _ := attr(b, "aria-label")
		_, isChoice := attr(b, "data-askplane-choice")
		if text(b) == "" && label == "" && !isChoice {
			t.Errorf("button %v has no accessible name", b.Attr)
		}
	}
	// Clickable things are buttons or links, never divs with roles.
	for _, e := range all(doc, func(e *html.Node) bool { r, _ := attr(e, "role"); return r == "button" || has(e, "tabindex") }) {
		t.Errorf("<%s %v>: use a button", e.Data, e.Attr)
	}
	// Decorative icons are hidden from assistive technology.
	for _, svg := range all(doc, func(e *html.Node) bool { return e.Data == "svg" }) {
		if h, _ := attr(svg, "aria-hidden"); h != "true" {
			t.Error("an svg icon without aria-hidden")
		}
	}
	list := one(t, templates(t, doc)["choices"], "choice-list")
	if l, _ := attr(list, "aria-label"); list.Data != "ul" || l == "" {
		t.Error("the choice list must be a labelled ul")
	}
}

// TestWidgetCSPSafe checks that the markup needs no script: no script or
// style elements, no event-handler or style attributes, no javascript:
// URLs, and that every class is the widget's own.
func TestWidgetCSPSafe(t *testing.T) {
	doc := renderWidget(t, web.EnglishWidget())
	for _, e := range all(doc, func(*html.Node) bool { return true }) {
		switch e.Data {
		case "script", "style", "iframe", "object", "embed":
			t.Errorf("<%s> in the widget", e.Data)
		}
		for _, a := range e.Attr {
			k := strings.ToLower(a.Key)
			if strings.HasPrefix(k, "on") || k == "style" || k == "srcdoc" {
				t.Errorf("<%s %s=…>: inline handler or style", e.Data, a.Key)
			}
			if strings.Contains(strings.ToLower(a.Val), "javascript:") {
				t.Errorf("<%s %s=%q>", e.Data, a.Key, a.Val)
			}
			if k == "class" {
				for _, c := range strings.Fields(a.Val) {
					if !strings.HasPrefix(c, "askplane__") {
						t.Errorf("class %q is not namespaced askplane__", c)
					}
				}
			}
		}
	}
}

// TestWidgetEscapesStrings checks that view-model strings are text, even
// when they look like markup.
func TestWidgetEscapesStrings(t *testing.T) {
	vm := web.EnglishWidget()
	vm.Title = `<script>alert(1)</script>`
	vm.Close = `"><img src=x onerror=alert(1)>`
	doc := renderWidget(t, vm)
	if len(all(doc, func(e *html.Node) bool { return e.Data == "script" || e.Data == "img" })) > 0 {
		t.Fatal("a view-model string became markup")
	}
	panel := one(t, doc, "panel")
	if h := all(panel, func(e *html.Node) bool { return e.Data == "h2" }); len(h) != 1 || text(h[0]) != "[[askplane_title|"+vm.Title+"]]" {
		t.Error("the title is not shown as text")
	}
}

// TestEnglishWidgetComplete checks that every string has an English default.
func TestEnglishWidgetComplete(t *testing.T) {
	vm := web.EnglishWidget()
	v := reflect.ValueOf(vm)
	for i := range v.NumField() {
		if f := v.Field(i); f.Kind() == reflect.String && f.String() == "" {
			t.Errorf("WidgetView.%s is empty", v.Type().Field(i).Name)
		}
	}
	for _, k := range web.MessageKeys {
		if vm.Messages[k] == "" {
			t.Errorf("message %q is empty", k)
		}
	}
	if len(vm.Messages) != len(web.MessageKeys) {
		t.Errorf("Messages has keys beyond MessageKeys")
	}
}

// TestHooksDocumented checks that every hook, template name and message key
// the markup uses is in the package documentation the JS authors read.
func TestHooksDocumented(t *testing.T) {
	docText, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	doc := renderWidget(t, web.EnglishWidget())
	seen := map[string]bool{}
	for _, e := range all(doc, func(*html.Node) bool { return true }) {
		for _, a := range e.Attr {
			if strings.HasPrefix(a.Key, "data-askplane-") {
				seen[a.Key] = true
			}
			if a.Key == "data-askplane-template" {
				seen[`data-askplane-template="`+a.Val+`"`] = true
			}
		}
	}
	for h := range seen {
		if !regexp.MustCompile(`(?m)^//\s+` + regexp.QuoteMeta(h) + `(\s|$|=)`).Match(docText) {
			t.Errorf("%s is not documented in doc.go's hook list", h)
		}
	}
}
