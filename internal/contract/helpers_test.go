package contract

import (
	"errors"
	"testing"

	"github.com/askplane/askplane/internal/provider"
)

// testProfile accepts model-visible schemas up to 64 KiB.
var testProfile = provider.Profile{Name: "test", StructuredOutput: true, MaxSchemaBytes: 64 << 10}

var testModel = ModelDescriptor{Model: "test-model", MaxOutputTokens: 1024}

// boundAsk is the Ask answer contract registered and bound to testProfile.
func boundAsk(t testing.TB) *Agent[AskInput, AskOutput] {
	t.Helper()
	d, err := DefineAskAnswer(testModel)
	if err != nil {
		t.Fatal(err)
	}
	return bind(t, d)
}

func bind[In, Out any](t testing.TB, d *Definition[In, Out]) *Agent[In, Out] {
	t.Helper()
	b, err := NewRegistryBuilder(RegistryLimits{})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Register(b); err != nil {
		t.Fatal(err)
	}
	reg, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	a, err := d.Bind(reg, testProfile)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// wantCode fails unless err is an *Error with code.
func wantCode(t testing.TB, err error, code Code) *Error {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T), want code %s", err, err, code)
	}
	if e.Code != code {
		t.Fatalf("code %s (%v), want %s", e.Code, err, code)
	}
	return e
}

func askIn() AskInput {
	return AskInput{
		Question: "How do I verify a build?",
		Records: []AskRecord{
			{ID: "r1", Title: "Install › Verify", Text: "Run askplane verify public/ after every build."},
			{ID: "r2", Title: "Caching", Text: "Serve the artifact with Cache-Control immutable."},
		},
	}
}

func providerText(s string) provider.Response { return provider.Response{Text: s} }
