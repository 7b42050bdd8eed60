package replay

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/askplane/askplane/internal/evidence"
	"github.com/askplane/askplane/internal/protocol"
)

// ParseFragment reads a review link's fragment (without '#') as
// evidence.DecodeFragment does, except that engine_id and context_id may
// be absent (historical and current-default replays); EngineID and
// ContextID are then "".
func ParseFragment(s string) (evidence.Recipe, error) {
	if s == "" || len(s) > evidence.MaxFragmentLen {
		return evidence.Recipe{}, invalid("the fragment is empty or too long")
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return evidence.Recipe{}, invalid("the fragment is not base64url")
		}
	}
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return evidence.Recipe{}, invalid("the fragment is not base64url")
	}
	return ParseRecipe(raw)
}

// ParseRecipe reads a recipe object strictly: valid UTF-8, exactly the
// recipe's members (engine_id and context_id optional), the askplane
// bundle, a corpus hash, a non-blank bounded question and a budget within
// the engine's bounds.
func ParseRecipe(raw []byte) (evidence.Recipe, error) {
	var r struct {
		Bundle    *string                `json:"bundle"`
		Version   *string                `json:"version"`
		Question  *string                `json:"question"`
		Budget    *evidence.RecipeBudget `json:"budget"`
		ContextID *string                `json:"context_id"`
		EngineID  *string                `json:"engine_id"`
	}
	if !utf8.Valid(raw) {
		return evidence.Recipe{}, invalid("the recipe is not UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil || dec.More() {
		return evidence.Recipe{}, invalid("the recipe is not a recipe object")
	}
	if r.Bundle == nil || r.Version == nil || r.Question == nil || r.Budget == nil {
		return evidence.Recipe{}, invalid("the recipe lacks bundle, version, question or budget")
	}
	out := evidence.Recipe{Bundle: *r.Bundle, Version: *r.Version, Question: *r.Question, Budget: *r.Budget}
	if r.ContextID != nil {
		if !protocol.ValidContentHash(*r.ContextID) {
			return evidence.Recipe{}, invalid("context_id must be a sha256 identity")
		}
		out.ContextID = *r.ContextID
	}
	if r.EngineID != nil {
		if *r.EngineID == "" || len(*r.EngineID) > 128 {
			return evidence.Recipe{}, invalid("engine_id must be 1 to 128 bytes")
		}
		out.EngineID = *r.EngineID
	}
	switch b := out.Budget; {
	case out.Bundle != evidence.RecipeBundle:
		return evidence.Recipe{}, invalid("not an askplane recipe")
	case !protocol.ValidContentHash(out.Version):
		return evidence.Recipe{}, invalid("version must be a corpus sha256")
	case strings.TrimSpace(out.Question) == "" || protocol.UTF16Len(out.Question) > evidence.MaxRecipeQuestionLen:
		return evidence.Recipe{}, invalid("question blank or too long")
	case b.MaxRecords < 1 || b.MaxRecords > evidence.MaxMaxRecords || b.MaxBytes < evidence.MinMaxBytes || b.MaxBytes > evidence.MaxMaxBytes:
		return evidence.Recipe{}, invalid("budget out of range")
	}
	return out, nil
}

func invalid(msg string) *Error { return fail(CodeInvalidRequest, msg) }
