// Command thirdparty writes the licence texts of everything a parley
// binary links — the Go standard library and every module that a release
// platform's build imports — into one file that ships beside the binary,
// as those licences ask. The release (.goreleaser.yaml) runs it:
//
//	go run ./scripts/thirdparty -out build/THIRD_PARTY_LICENSES
//
// A module whose root holds no licence file stops it with an error, so a
// new dependency cannot ship without its notice.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"
)

// platforms are the release's targets (see builds in .goreleaser.yaml):
// each may import modules the others do not.
func platforms() [][2]string {
	return [][2]string{
		{"linux", "amd64"}, {"linux", "arm64"},
		{"darwin", "amd64"}, {"darwin", "arm64"},
		{"windows", "amd64"}, {"windows", "arm64"},
		{"freebsd", "amd64"},
	}
}

// isLicenceFile says whether a file name is one modules give their licence
// and notice files: LICENSE, LICENSE.md, LICENCE, COPYING, NOTICE,
// LICENSE-SQLITE, …
func isLicenceFile(name string) bool {
	lower := strings.ToLower(name)
	for _, stem := range []string{"license", "licence", "copying", "notice"} {
		if rest, ok := strings.CutPrefix(lower, stem); ok && (rest == "" || strings.ContainsRune("-_.", rune(rest[0]))) {
			return true
		}
	}
	return false
}

// maxLicenceBytes bounds one licence file: the longest here is a few
// tens of KB; something far larger is not a licence.
const maxLicenceBytes = 1 << 20

type module struct{ path, version, dir string }

func main() {
	out := flag.String("out", "", "file to write (required)")
	flag.Parse()
	if *out == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "thirdparty: usage: thirdparty -out FILE")
		os.Exit(2)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if err := run(ctx, *out); err != nil {
		fmt.Fprintln(os.Stderr, "thirdparty:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, out string) error {
	mods, err := linkedModules(ctx)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	b.WriteString("Licences of the software a parley binary is built from, besides parley itself\n")
	b.WriteString("(see NOTICE): the Go standard library and the Go modules below, at the\n")
	b.WriteString("versions this release links.\n")
	goroot, err := goEnv(ctx, "GOROOT")
	if err != nil {
		return err
	}
	if err := appendLicences(&b, module{path: "Go standard library", version: runtime.Version(), dir: goroot}); err != nil {
		return err
	}
	for _, m := range mods {
		if err := appendLicences(&b, m); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	return os.WriteFile(out, b.Bytes(), 0o644)
}

// linkedModules lists the modules parley's main package imports on any
// release platform, sorted by path.
func linkedModules(ctx context.Context) ([]module, error) {
	seen := map[string]module{}
	for _, p := range platforms() {
		cmd := exec.CommandContext(ctx, "go", "list", "-deps", "-f",
			"{{with .Module}}{{if not .Main}}{{.Path}}\t{{.Version}}\t{{with .Replace}}{{.Dir}}{{else}}{{.Dir}}{{end}}{{end}}{{end}}", "parley")
		cmd.Env = append(os.Environ(), "GOOS="+p[0], "GOARCH="+p[1], "CGO_ENABLED=0")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		listed, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("go list -deps for %s/%s: %w: %s", p[0], p[1], err, strings.TrimSpace(stderr.String()))
		}
		for line := range strings.Lines(string(listed)) {
			f := strings.Split(strings.TrimSpace(line), "\t")
			if len(f) != 3 {
				continue
			}
			if f[2] == "" {
				return nil, fmt.Errorf("module %s@%s is not downloaded; run go mod download first", f[0], f[1])
			}
			seen[f[0]] = module{path: f[0], version: f[1], dir: f[2]}
		}
	}
	if len(seen) == 0 {
		return nil, errors.New("go list named no module; run it inside parley's source")
	}
	mods := make([]module, 0, len(seen))
	for _, m := range seen {
		mods = append(mods, m)
	}
	slices.SortFunc(mods, func(a, b module) int { return strings.Compare(a.path, b.path) })
	return mods, nil
}

// appendLicences adds every licence file in the module's root, by name.
func appendLicences(b *bytes.Buffer, m module) error {
	entries, err := os.ReadDir(m.dir)
	if err != nil {
		return fmt.Errorf("reading %s@%s: %w", m.path, m.version, err)
	}
	var names []string
	for _, e := range entries {
		if e.Type().IsRegular() && isLicenceFile(e.Name()) {
			names = append(names, e.Name())
		}
	}
	if len(names) == 0 {
		return fmt.Errorf("%s@%s has no LICENSE, LICENCE, COPYING or NOTICE file in %s; find its licence and ship it before releasing", m.path, m.version, m.dir)
	}
	slices.Sort(names)
	for _, name := range names {
		path := filepath.Join(m.dir, name)
		info, err := os.Stat(path)
		if err != nil {
			return err
		}
		if info.Size() > maxLicenceBytes {
			return fmt.Errorf("%s is %d bytes, more than the %d a licence file is allowed here", path, info.Size(), maxLicenceBytes)
		}
		text, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		fmt.Fprintf(b, "\n%s\n%s %s: %s\n\n", strings.Repeat("=", 78), m.path, m.version, name)
		b.Write(bytes.TrimRight(text, "\n"))
		b.WriteString("\n")
	}
	return nil
}

func goEnv(ctx context.Context, name string) (string, error) {
	out, err := exec.CommandContext(ctx, "go", "env", name).Output()
	if err != nil {
		return "", fmt.Errorf("go env %s: %w", name, err)
	}
	return strings.TrimSpace(string(out)), nil
}
