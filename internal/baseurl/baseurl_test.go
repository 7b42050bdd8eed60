package baseurl

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for raw, want := range map[string]string{
		"https://api.example.com/v1":             "https://api.example.com/v1/",
		"https://docs.example.com/":              "https://docs.example.com/",
		"http://127.0.0.1:11434/v1":              "http://127.0.0.1:11434/v1/",
		"http://[::1]:8080":                      "http://[::1]:8080/",
		"http://localhost:8080/":                 "",
		"http://docs.example.com/":               "",
		"ftp://docs.example.com/":                "",
		"https://user:pw@example.com":            "",
		"https://example.com/?a=1":               "",
		"https://example.com/#x":                 "",
		"https:///path":                          "",
		"":                                       "",
		"https://" + strings.Repeat("a", MaxLen): "",
	} {
		u, err := Parse(raw)
		got := ""
		if err == nil {
			got = u.String()
		} else if strings.Contains(err.Error(), "pw") {
			t.Errorf("Parse(%q): error quotes the URL: %v", raw, err)
		}
		if got != want {
			t.Errorf("Parse(%q) = %q, %v; want %q", raw, got, err, want)
		}
	}
}
