//go:build unix

package paste

import (
	"context"
	"errors"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"parley/api"
	"parley/media/mediatest"
)

// textDir holds the files of these tests: text of several kinds, one with
// a space in its name, a real PNG and binary files.
type textDir struct {
	dir                                     string
	md, goFile, log, csv, makefile, spaced  string
	png, program, blob, utf16, link, quoted string
}

func newTextDir(t *testing.T) textDir {
	t.Helper()
	dir := t.TempDir()
	d := textDir{
		dir:      dir,
		md:       write(t, dir, "notes.md", []byte("# Notes\n\n- the chart is upside down\n")),
		goFile:   write(t, dir, "main.go", []byte("package main\n\nfunc main() {\n\tprintln(\"hi\")\n}\n")),
		log:      write(t, dir, "build.log", []byte("2026-11-26 10:00:01 ok\n2026-11-26 10:00:02 failed: exit 1\n")),
		csv:      write(t, dir, "data.csv", []byte("a,b\n1,2\n")),
		makefile: write(t, dir, "Makefile", []byte("all:\n\tgo build ./...\n")),
		spaced:   write(t, dir, "My Notes.md", []byte("été\n")),
		png:      write(t, dir, "shot.png", mediatest.PNG(t, mediatest.Screenshot(16, 12))),
		program:  write(t, dir, "tool", []byte("\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00")),
		blob:     write(t, dir, "data.bin", []byte{0x13, 0x37, 0x00, 0xfe, 0x01}),
		utf16:    write(t, dir, "wide.txt", []byte{0xff, 0xfe, 'h', 0, 'i', 0}),
		quoted:   write(t, dir, "'q'.md", []byte("quoted\n")),
	}
	d.link = filepath.Join(dir, "link.md")
	if err := os.Symlink(d.md, d.link); err != nil {
		t.Fatal(err)
	}
	return d
}

// attachAll is what the root does with a Paths paste: Check, then
// api.AttachContext for each path.
func attachAll(t *testing.T, paths []string) []api.Attachment {
	t.Helper()
	if err := Check(context.Background(), paths); err != nil {
		t.Fatalf("Check(%q): %v", paths, err)
	}
	var out []api.Attachment
	for _, p := range paths {
		a, err := api.AttachContext(context.Background(), p, api.AttachLimits{})
		if err != nil {
			t.Fatalf("attach %s: %v", p, err)
		}
		out = append(out, a)
	}
	return out
}

// Dropped text files (code, Markdown, a log, CSV, a name without an
// extension) are paths, however the terminal quoted them, and attach as
// text: the bytes decide, not the extension.
func TestDroppedTextFilesAttach(t *testing.T) {
	d := newTextDir(t)
	esc := func(p string) string { return strings.ReplaceAll(p, " ", `\ `) }
	fileURL := func(p string) string { return (&url.URL{Scheme: "file", Path: p}).String() }
	tests := []struct {
		name, paste string
		want        []string
	}{
		{"Markdown, single-quoted", "'" + d.md + "' ", []string{d.md}},
		{"Go source and a log, bare", d.goFile + " " + d.log, []string{d.goFile, d.log}},
		{"escaped space", esc(d.spaced), []string{d.spaced}},
		{"uri-list", fileURL(d.spaced) + "\r\n" + fileURL(d.csv) + "\r\n", []string{d.spaced, d.csv}},
		{"one a line, unquoted with a space", d.spaced + "\n" + d.log + "\n", []string{d.spaced, d.log}},
		{"double-quoted name without an extension", `"` + d.makefile + `"`, []string{d.makefile}},
		{"home", "~/notes.md ~/My\\ Notes.md", []string{d.md, d.spaced}},
		{"a symbolic link to a text file", d.link, []string{d.link}},
		// The shell's reading drops the quotes and names nothing; the
		// next reading takes the name as it is.
		{"quotes in the name, unquoted", filepath.Join(d.dir, "'q'.md"), []string{d.quoted}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Parse(tt.paste, d.dir)
			if r.Kind != Paths || !slices.Equal(r.Paths, tt.want) {
				t.Fatalf("Parse(%q) = %v %q, want paths %q", tt.paste, r.Kind, r.Paths, tt.want)
			}
			for i, a := range attachAll(t, r.Paths) {
				if !a.IsText() || a.Name != filepath.Base(tt.want[i]) || a.Lines == 0 {
					t.Fatalf("%s attached as %+v", tt.want[i], a)
				}
			}
		})
	}
	t.Run("relative to the working directory", func(t *testing.T) {
		t.Chdir(d.dir)
		if r := Parse("./main.go ../"+filepath.Base(d.dir)+"/build.log", ""); r.Kind != Paths || len(r.Paths) != 2 {
			t.Fatalf("Parse = %+v", r)
		}
	})
}

// A dropped file that is neither an image nor text is a paste of paths
// (the file exists), and Check refuses it in one sentence that says what
// it is; the root then keeps the paste as text and shows the sentence.
func TestDroppedBinaryFileIsRefused(t *testing.T) {
	d := newTextDir(t)
	for _, tt := range []struct {
		name, paste, path, says string
	}{
		{"a program", d.program, d.program, "it is a program, neither a PNG, JPEG, WEBP or GIF image nor a text file; convert it or attach another file"},
		{"unknown binary", "'" + d.blob + "'", d.blob, "it holds binary data, neither a PNG, JPEG, WEBP or GIF image nor a text file; attach an image or a text file"},
		{"UTF-16 text", d.utf16, d.utf16, "it is text in UTF-16, which parley does not send; save it as UTF-8 and attach it again"},
		{"binary after a text file", d.md + " " + d.blob, d.blob, "it holds binary data"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := Parse(tt.paste, "")
			if r.Kind != Paths {
				t.Fatalf("Parse(%q) = %+v, want paths", tt.paste, r)
			}
			err := Check(context.Background(), r.Paths)
			var ce *CheckError
			if !errors.As(err, &ce) || ce.Path != tt.path {
				t.Fatalf("Check = %v, want a refusal of %s", err, tt.path)
			}
			msg := err.Error()
			if !strings.Contains(msg, tt.says) || strings.Contains(msg, ". ") || strings.ContainsAny(msg, "\n") {
				t.Fatalf("refusal %q, want one sentence saying %q", msg, tt.says)
			}
			// The api refuses it the same way when it comes by /attach.
			if _, err := api.AttachContext(context.Background(), tt.path, api.AttachLimits{}); err == nil {
				t.Fatalf("api attached %s", tt.path)
			}
		})
	}
}

// Text that mentions paths, even of files that exist, stays text: a
// sentence with a slash, a path in a sentence, a bare name, a folder, a
// special file, a path that names nothing, a comment.
func TestSentencesWithSlashesStayText(t *testing.T) {
	d := newTextDir(t)
	fifo := filepath.Join(d.dir, "pipe.md")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(d.dir) // README.md and notes.md exist here, as bare names
	write(t, d.dir, "README.md", []byte("# Read me\n"))
	for _, in := range []string{
		"and/or",
		"the client/server split is 50/50",
		"see " + d.md + " please",
		d.md + " is wrong",
		d.md + "\nwhat does it say?",
		d.md + " and " + d.log,
		"/usr/bin and /etc",
		"compare " + d.goFile + " " + d.log,
		"README.md",
		"notes.md main.go",
		d.dir,
		d.dir + "/",
		fifo,
		"/dev/null",
		"/api/v1/users",
		"/api/v1/users\n/api/v1/groups",
		"// TODO: fix this",
		"/* a comment */",
		d.md + " /api/v1/users",
		d.goFile + ":4:2: undefined: printn",
	} {
		start := time.Now()
		if r := Parse(in, d.dir); r.Kind != Text {
			t.Errorf("Parse(%q) = %+v, want text", in, r)
		}
		if el := time.Since(start); el > statWait/2 {
			t.Errorf("Parse(%q) took %v", in, el)
		}
	}
}

// A drop of images and text files together attaches each as what its
// bytes are.
func TestMixedImageAndTextFiles(t *testing.T) {
	d := newTextDir(t)
	// Named like an image, holding text: still a path by its name, and text.
	gif := write(t, d.dir, "notes.gif", []byte("a text named .gif\n"))
	paste := "'" + d.png + "' '" + d.md + "' " + gif + " " + strings.ReplaceAll(d.spaced, " ", `\ `)
	r := Parse(paste, "")
	want := []string{d.png, d.md, gif, d.spaced}
	if r.Kind != Paths || !slices.Equal(r.Paths, want) {
		t.Fatalf("Parse = %v %q, want %q", r.Kind, r.Paths, want)
	}
	atts := attachAll(t, r.Paths)
	if atts[0].IsText() || atts[0].MIME != "image/png" || atts[0].Width != 16 {
		t.Fatalf("the image attached as %+v", atts[0])
	}
	for _, a := range atts[1:] {
		if !a.IsText() {
			t.Fatalf("%s attached as %+v", a.Name, a)
		}
	}
}

// Images alone never touch the file system in Parse; a file system that
// does not answer makes Parse wait statWait at most, and the paste is
// left to Check (which runs off the UI goroutine).
func TestParseBoundsItsStats(t *testing.T) {
	noStat := func(p string) (fs.FileInfo, error) {
		t.Errorf("stat(%q) for a paste of images", p)
		return nil, fs.ErrNotExist
	}
	if r := parse("/mnt/away/a.png '/mnt/away/b c.jpg'", "", noStat); r.Kind != Paths || len(r.Paths) != 2 {
		t.Fatalf("images: %+v", r)
	}
	if r := parse("look at /tmp/notes.md", "", noStat); r.Kind != Text {
		t.Fatalf("a sentence: %+v", r)
	}

	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	var calls atomic.Int32
	hung := func(string) (fs.FileInfo, error) {
		calls.Add(1)
		<-release
		return nil, fs.ErrNotExist
	}
	start := time.Now()
	r := parse("/mnt/away/notes.md\n/mnt/away/log.txt", "", hung)
	if el := time.Since(start); el < statWait || el > statWait+time.Second {
		t.Fatalf("Parse waited %v for a hung mount, want about %v", el, statWait)
	}
	if r.Kind != Paths || len(r.Paths) != 2 {
		t.Fatalf("a hung mount: %+v, want the paths left to Check", r)
	}
	if n := calls.Load(); n != 1 {
		t.Fatalf("%d stats started, want the first only (they run one after the other)", n)
	}
}
