package cli

import (
	"runtime"
	"runtime/debug"
	"testing"
)

func TestResolveBuildFromBuildInfo(t *testing.T) {
	info := &debug.BuildInfo{
		GoVersion: "go1.26.8",
		Main:      debug.Module{Path: "parley", Version: "v0.0.0-20261129054026-7a69c2a1b2c3+dirty"},
		Settings: []debug.BuildSetting{
			{Key: "-trimpath", Value: "true"},
			{Key: "GOOS", Value: "windows"},
			{Key: "GOARCH", Value: "arm64"},
			{Key: "vcs", Value: "git"},
			{Key: "vcs.revision", Value: "7a69c2a1b2c3d4e5f60718293a4b5c6d7e8f9012"},
			{Key: "vcs.time", Value: "2026-11-29T05:40:26Z"},
			{Key: "vcs.modified", Value: "true"},
		},
	}
	b := resolveBuild(linkerStamp{}, info)
	want := "parley 0.0.0-20261129054026-7a69c2a1b2c3+dirty\n" +
		"commit: 7a69c2a1b2c3d4e5f60718293a4b5c6d7e8f9012 with uncommitted changes\n" +
		"date:   2026-11-29T05:40:26Z\n" +
		"go:     go1.26.8 windows/arm64\n"
	if got := b.String(); got != want {
		t.Fatalf("--version text:\n%s\nwant:\n%s", got, want)
	}
}

func TestResolveBuildLinkerStampWins(t *testing.T) {
	info := &debug.BuildInfo{
		GoVersion: "go1.26.8",
		Main:      debug.Module{Path: "parley", Version: "v0.0.0-20261129054026-7a69c2a1b2c3"},
		Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "7a69c2a1b2c3d4e5f60718293a4b5c6d7e8f9012"},
			{Key: "vcs.time", Value: "2026-11-29T05:40:26Z"},
			{Key: "vcs.modified", Value: "false"},
		},
	}
	ld := linkerStamp{version: "v1.2.0", commit: "0123456789abcdef0123456789abcdef01234567", date: "2026-12-01T10:00:00+01:00"}
	b := resolveBuild(ld, info)
	if b.Version != "1.2.0" || b.Commit != ld.commit || b.Date != "2026-12-01T09:00:00Z" || b.Modified {
		t.Fatalf("build = %+v", b)
	}
	if b.Platform != runtime.GOOS+"/"+runtime.GOARCH {
		t.Fatalf("platform %q without GOOS/GOARCH settings", b.Platform)
	}
}

func TestResolveBuildWithoutInformation(t *testing.T) {
	for name, info := range map[string]*debug.BuildInfo{
		"no build info": nil,
		"(devel)":       {Main: debug.Module{Path: "parley", Version: "(devel)"}},
	} {
		b := resolveBuild(linkerStamp{}, info)
		want := "parley devel\n" +
			"commit: unknown (built without version control information)\n" +
			"date:   unknown\n" +
			"go:     " + runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH + "\n"
		if got := b.String(); got != want {
			t.Errorf("%s:\n%s\nwant:\n%s", name, got, want)
		}
	}
}

func TestResolveBuildKeepsADateItCannotRead(t *testing.T) {
	b := resolveBuild(linkerStamp{date: "yesterday"}, nil)
	if b.Date != "yesterday" {
		t.Fatalf("date = %q", b.Date)
	}
}
