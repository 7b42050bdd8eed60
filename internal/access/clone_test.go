package access

import (
	"context"
	"net/http"
	"reflect"
	"testing"
	"time"
)

type spendNothing struct{}

func (spendNothing) Spend(context.Context, string) (bool, time.Duration, error) { return true, 0, nil }
func (spendNothing) Check(context.Context, string) (bool, time.Duration, error) { return true, 0, nil }

// TestPolicyCloneCopiesEveryField: Check and Guarded hand out a clone of
// the Policy, so a field added to Policy and forgotten in clone would be
// dropped silently from every checked site; this fails first.
func TestPolicyCloneCopiesEveryField(t *testing.T) {
	p := &Policy{
		Hosts: []string{"h"}, Origins: []string{"o"}, SameOrigin: true,
		Tokens:     []Token{{Subject: "s", Secret: []byte("t")}},
		Anonymous:  &CookieAuth{Secret: []byte("k"), Origins: []string{"o"}},
		FailedAuth: spendNothing{},
		ClientAddr: func(*http.Request) string { return "a" },
	}
	v, c := reflect.ValueOf(p).Elem(), reflect.ValueOf(p.clone()).Elem()
	for i := range v.NumField() {
		f := v.Type().Field(i)
		if !f.IsExported() {
			continue
		}
		if v.Field(i).IsZero() {
			t.Fatalf("the test leaves Policy.%s zero: set it", f.Name)
		}
		switch {
		case f.Type.Kind() == reflect.Func:
			if c.Field(i).IsNil() {
				t.Errorf("clone drops Policy.%s", f.Name)
			}
		case !reflect.DeepEqual(v.Field(i).Interface(), c.Field(i).Interface()):
			t.Errorf("clone changes Policy.%s", f.Name)
		}
	}
	if p.clone().Anonymous == p.Anonymous {
		t.Error("clone shares the CookieAuth")
	}
}
