package cli

import (
	"cmp"
	"runtime"
	"runtime/debug"
	"strings"
	"time"
)

// A release build names itself through the linker:
//
//	-ldflags "-X parley/cli.version=1.2.0 -X parley/cli.commit=<sha> -X parley/cli.date=<RFC 3339>"
//
// These are variables only because -X cannot set a constant; nothing
// assigns them at run time. Left empty (a plain go build or go install),
// the build is named from what the Go toolchain stamped into the binary.
var (
	version string
	commit  string
	date    string
)

// develVersion names a build that carries no version at all (built with
// -buildvcs=false outside a release).
const develVersion = "devel"

// Build says which build of parley is running, for --version and bug
// reports.
type Build struct {
	// Version is the release's version ("1.2.0"), else the module version
	// the go command recorded ("0.0.0-20261129054026-7a69c2a1b2c3" from a
	// checkout, "1.2.0" from go install parley@v1.2.0), else "devel".
	Version string
	// Commit is the full revision it was built from; "" when unknown.
	Commit string
	// Date is the commit's time, RFC 3339 in UTC (a release stamps its
	// commit's time too, so that rebuilding it gives the same bytes); ""
	// when unknown.
	Date string
	// Modified says the tree had changes that were not committed.
	Modified bool
	// Go and Platform are the toolchain and the GOOS/GOARCH it targets.
	Go, Platform string
}

// Version is the running build's version, as in the User-Agent
// "parley/<version>".
func Version() string { return CurrentBuild().Version }

// CurrentBuild describes the running binary: the linker's stamp where a
// release set one, the go command's build information for the rest.
func CurrentBuild() Build {
	info, _ := debug.ReadBuildInfo()
	return resolveBuild(linkerStamp{version: version, commit: commit, date: date}, info)
}

// linkerStamp is what -X set, each field "" when it was not given.
type linkerStamp struct{ version, commit, date string }

// resolveBuild combines the linker's stamp with the build information
// (nil when the binary has none). The stamp wins field by field: a release
// is built from a checkout too, and says its version better than a
// pseudo-version does.
func resolveBuild(ld linkerStamp, info *debug.BuildInfo) Build {
	b := Build{Go: runtime.Version()}
	goos, goarch := runtime.GOOS, runtime.GOARCH
	var revision, vcsTime string
	if info != nil {
		if info.GoVersion != "" {
			b.Go = info.GoVersion
		}
		if v := info.Main.Version; v != "" && v != "(devel)" {
			b.Version = v
		}
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				revision = s.Value
			case "vcs.time":
				vcsTime = s.Value
			case "vcs.modified":
				b.Modified = s.Value == "true"
			case "GOOS":
				goos = s.Value
			case "GOARCH":
				goarch = s.Value
			}
		}
	}
	b.Platform = goos + "/" + goarch
	if ld.version != "" {
		b.Version = ld.version
	}
	b.Version = strings.TrimPrefix(b.Version, "v")
	if b.Version == "" {
		b.Version = develVersion
	}
	b.Commit = cmp.Or(ld.commit, revision)
	b.Date = utcTime(cmp.Or(ld.date, vcsTime))
	return b
}

// String is the --version text: the first line is "parley <version>" alone,
// for scripts; the rest names the exact source and toolchain.
func (b Build) String() string {
	var s strings.Builder
	s.WriteString("parley " + b.Version + "\n")
	switch {
	case b.Commit == "":
		s.WriteString("commit: unknown (built without version control information)\n")
	case b.Modified:
		s.WriteString("commit: " + b.Commit + " with uncommitted changes\n")
	default:
		s.WriteString("commit: " + b.Commit + "\n")
	}
	if b.Date == "" {
		s.WriteString("date:   unknown\n")
	} else {
		s.WriteString("date:   " + b.Date + "\n")
	}
	s.WriteString("go:     " + b.Go + " " + b.Platform + "\n")
	return s.String()
}

// utcTime writes an RFC 3339 time in UTC, so a build's date reads the same
// wherever it was made; text that is not such a time is kept as given.
func utcTime(s string) string {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return s
	}
	return t.UTC().Format(time.RFC3339)
}

// userAgent identifies parley to gateways: "parley/<version>".
func userAgent() string { return "parley/" + Version() }
