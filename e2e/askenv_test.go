package e2e

import (
	"os"
	"path/filepath"
	"testing"

	"parley/api/apitest"
)

// askEnv is a hermetic environment for parley run without tmux.
func askEnv(t *testing.T, gw *apitest.Server) []string {
	t.Helper()
	home := t.TempDir()
	return []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + home,
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_STATE_HOME=" + filepath.Join(home, ".local", "state"),
		"OPENAI_BASE_URL=" + gw.URL(),
		"OPENAI_API_KEY=" + apitest.DefaultAPIKey,
	}
}
