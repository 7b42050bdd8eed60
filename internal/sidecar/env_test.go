package sidecar

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestLoadEnvOrder pins the one order every entry point reads its config
// in: the command line's file, else ASKPLANE_CONFIG or
// ASKPLANE_CONFIG_JSON (never both), else the entry point's default.
func TestLoadEnvOrder(t *testing.T) {
	dir := t.TempDir()
	write := func(name, corpusID string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(`{"sites":[`+testSiteConfig(testSite("docs", corpusID), "")+`]}`), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	flagFile, envFile, fallback := write("flag.json", "from-flag"), write("env.json", "from-file"), write("fallback.json", "from-fallback")
	inline := `{"sites":[` + testSiteConfig(testSite("docs", "from-json"), "") + `]}`
	env := func(vars map[string]string) Env {
		return func(name string) (string, bool) { v, ok := vars[name]; return v, ok }
	}
	tests := []struct {
		name     string
		vars     map[string]string
		path     string
		fallback string
		want     string // the corpus id of the config read
		err      error
	}{
		{"flag wins over both variables", map[string]string{EnvConfigFile: envFile, EnvConfigJSON: inline}, flagFile, fallback, "from-flag", nil},
		{"file variable", map[string]string{EnvConfigFile: envFile}, "", fallback, "from-file", nil},
		{"inline variable", map[string]string{EnvConfigJSON: inline}, "", fallback, "from-json", nil},
		{"both variables", map[string]string{EnvConfigFile: envFile, EnvConfigJSON: inline}, "", fallback, "", ErrConfigEnvBoth},
		{"empty variables are unset", map[string]string{EnvConfigFile: "", EnvConfigJSON: inline}, "", "", "from-json", nil},
		{"the entry point's default", nil, "", fallback, "from-fallback", nil},
		{"nothing", map[string]string{EnvConfigFile: "", EnvConfigJSON: ""}, "", "", "", ErrNoConfig},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := LoadEnv(env(tt.vars), tt.path, tt.fallback)
			if tt.err != nil {
				if !errors.Is(err, tt.err) {
					t.Fatalf("err = %v, want %v", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			trusted, err := c.Sites[0].record()
			if site := trusted.Record(); err != nil || site.Corpus.ID != tt.want {
				t.Fatalf("read the config of corpus %q (%v), want %q", site.Corpus.ID, err, tt.want)
			}
		})
	}
	if _, err := LoadEnv(env(map[string]string{EnvConfigFile: envFile, EnvConfigJSON: inline}), "", ""); !errors.Is(err, ErrConfig) {
		t.Errorf("both variables: %v does not wrap ErrConfig", err)
	}
}
