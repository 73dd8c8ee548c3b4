package ui

import (
	"fmt"
	"os"
	"runtime/pprof"
)

// profileEnv names the environment variable that makes the chat write a CPU
// profile of the whole session (from start to quit) to the file it names.
// It is for measuring the real binary in a real terminal (BENCHMARKS.md);
// it is not a user-facing option, so the help does not list it.
const profileEnv = "PARLEY_CPUPROFILE"

// startProfile starts the CPU profile when PARLEY_CPUPROFILE is set and
// returns the function that ends it and closes the file (a no-op when the
// variable is unset or there is no environment).
func startProfile(getenv func(string) string) (stop func() error, err error) {
	path := ""
	if getenv != nil {
		path = getenv(profileEnv)
	}
	if path == "" {
		return func() error { return nil }, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("%s: cannot create the profile file: %w; name a writable file or unset it", profileEnv, err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("%s: cannot start the CPU profile: %w; unset it", profileEnv, err)
	}
	return func() error {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			return fmt.Errorf("%s: writing the profile %s failed: %w", profileEnv, path, err)
		}
		return nil
	}, nil
}
