package config

import (
	"strings"
	"testing"
)

func TestHistoryKeys(t *testing.T) {
	env, _ := testEnv(t, nil)
	if c := mustLoad(t, env); !c.History || c.AutoTitle {
		t.Fatalf("defaults without a file: history %v auto_title %v, want true false", c.History, c.AutoTitle)
	}
	writeConfig(t, env, "theme = \"dark\"\n", 0o600)
	if c := mustLoad(t, env); !c.History || c.AutoTitle {
		t.Fatalf("defaults with a file: history %v auto_title %v", c.History, c.AutoTitle)
	}
	writeConfig(t, env, "history = false\nauto_title = true\n", 0o600)
	if c := mustLoad(t, env); c.History || !c.AutoTitle || len(c.Warnings) != 0 {
		t.Fatalf("history %v auto_title %v warnings %q", c.History, c.AutoTitle, c.Warnings)
	}
	writeConfig(t, env, "history = \"no\"\n", 0o600)
	_, err := Load(env)
	if err == nil || !strings.Contains(err.Error(), ":1:") || !strings.Contains(err.Error(), "history must be true or false") {
		t.Fatalf("history = \"no\": %v", err)
	}
}
