package evidence

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/askplane/askplane/internal/protocol"
)

// Recipe is everything needed to rebuild a package later: which corpus
// version, which engine, which question and which budget, plus the
// context id the rebuilt package must have. It is what a review link
// carries, in the URL fragment, so the evidence of an answer can be
// reconstructed (and checked byte for byte) without the server storing
// anything and without the fragment ever reaching a server or referrer.
type Recipe struct {
	Bundle    string       `json:"bundle"`  // RecipeBundle
	Version   string       `json:"version"` // the corpus source version (contentHash)
	Question  string       `json:"question"`
	Budget    RecipeBudget `json:"budget"`
	ContextID string       `json:"context_id"`
	EngineID  string       `json:"engine_id"`
}

// RecipeBudget is the resolved budget a package was built with.
type RecipeBudget struct {
	MaxRecords int `json:"max_records"`
	MaxBytes   int `json:"max_bytes"`
}

// RecipeBundle names askplane's recipes, so a fragment meant for another
// product's review page is refused rather than misread.
const RecipeBundle = "askplane.evidence"

// Bounds of a review fragment and its question.
const (
	MaxFragmentLen       = 16_000
	MaxRecipeQuestionLen = 2_000 // UTF-16 units
)

// Recipe returns the recipe that rebuilds p.
func (p *Package) Recipe() Recipe {
	return Recipe{
		Bundle:    RecipeBundle,
		Version:   p.SourceVersion,
		Question:  p.Question,
		Budget:    RecipeBudget{MaxRecords: p.Budget.MaxRecords, MaxBytes: p.Budget.MaxBytes},
		ContextID: p.ContextID,
		EngineID:  p.Engine,
	}
}

// ReviewPath is the path of the review page that rebuilds the package
// whose recipe is fragment (Recipe.Fragment), on the sidecar answering
// for corpusID. The corpus id is a SafeIdentifier and the fragment
// base64url, so neither needs escaping.
func ReviewPath(corpusID, fragment string) string {
	return "/review/?corpus=" + corpusID + "#" + fragment
}

// Fragment returns the recipe as a URL fragment: unpadded base64url of
// its JSON, the form DecodeFragment reads.
func (r Recipe) Fragment() string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		panic("evidence: encoding a recipe: " + err.Error()) // strings and ints only
	}
	return base64.RawURLEncoding.EncodeToString(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
}

// ErrFragment is returned, with a reason, for every fragment DecodeFragment
// refuses. The reason never quotes the fragment.
var ErrFragment = errors.New("evidence: invalid review fragment")

func fragmentErr(reason string) error { return errors.New(ErrFragment.Error() + ": " + reason) }

// DecodeFragment reads a review fragment (without the leading '#')
// strictly: bounded length, base64url alphabet only, valid UTF-8, a JSON
// object with exactly the recipe's keys, the askplane bundle, a non-blank
// bounded question, identities of the right shape and a budget within the
// engine's bounds.
func DecodeFragment(s string) (Recipe, error) {
	var r Recipe
	if s == "" || len(s) > MaxFragmentLen {
		return r, fragmentErr("empty or too long")
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return r, fragmentErr("not base64url")
		}
	}
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return r, fragmentErr("not base64url")
	}
	if !utf8.Valid(raw) {
		return r, fragmentErr("not UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return Recipe{}, fragmentErr("not a recipe object")
	}
	if dec.More() {
		return Recipe{}, fragmentErr("trailing data")
	}
	var keys map[string]json.RawMessage
	if json.Unmarshal(raw, &keys) != nil || len(keys) != 6 {
		return Recipe{}, fragmentErr("missing recipe fields")
	}
	q := strings.TrimSpace(r.Question)
	switch {
	case r.Bundle != RecipeBundle:
		return Recipe{}, fragmentErr("not an askplane recipe")
	case !protocol.ValidContentHash(r.Version):
		return Recipe{}, fragmentErr("version must be a corpus sha256")
	case !protocol.ValidContentHash(r.ContextID):
		return Recipe{}, fragmentErr("context_id must be a sha256 identity")
	case r.EngineID == "" || len(r.EngineID) > 128:
		return Recipe{}, fragmentErr("engine_id missing")
	case q == "" || protocol.UTF16Len(r.Question) > MaxRecipeQuestionLen:
		return Recipe{}, fragmentErr("question blank or too long")
	case r.Budget.MaxRecords < 1 || r.Budget.MaxRecords > MaxMaxRecords ||
		r.Budget.MaxBytes < MinMaxBytes || r.Budget.MaxBytes > MaxMaxBytes:
		return Recipe{}, fragmentErr("budget out of range")
	}
	return r, nil
}
