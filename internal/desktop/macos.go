package desktop

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"parley/internal/safefile"
)

// osascript reads and writes the clipboard's PNG through a file named by
// its first argument, so no data passes through AppleScript's text.
const (
	macReadPNG = `on run argv
	set f to open for access (POSIX file (item 1 of argv)) with write permission
	try
		write (the clipboard as «class PNGf») to f
	on error m number n
		close access f
		error m number n
	end try
	close access f
end run`
	macWritePNG = `on run argv
	set the clipboard to (read (POSIX file (item 1 of argv)) as «class PNGf»)
end run`
)

// macNoImage are fragments of what pngpaste and osascript print when the
// clipboard holds no image (osascript's -1700: "can't make … into type").
func macNoImage() []string {
	return []string{"No image data", "No PNG", "could not convert", "-1700"}
}

// readMac asks pbpaste for text first (text wins, see ReadClipboard), then
// pngpaste for an image, or osascript where pngpaste is not installed.
// pngpaste converts whatever image the pasteboard holds (TIFF, PDF) to PNG.
func (s System) readMac(ctx context.Context) (Clip, error) {
	pbpaste := s.find("pbpaste")
	if pbpaste != "" {
		out, err := s.run(ctx, tool{name: "pbpaste", path: pbpaste, limit: MaxTextBytes})
		switch {
		case errors.Is(err, errTooMuch):
			return Clip{}, tooMuchText()
		case err != nil:
			return Clip{}, readFailed(err, "")
		case len(out) > 0:
			return Clip{Text: string(out), Tool: "pbpaste"}, nil
		}
	}
	var (
		data []byte
		name string
		err  error
	)
	switch pngpaste, osascript := s.find("pngpaste"), s.find("osascript"); {
	case pngpaste != "":
		name = "pngpaste"
		data, err = s.run(ctx, tool{name: name, path: pngpaste, args: []string{"-"}, limit: s.maxImage(), head: imageHead(name)})
	case osascript != "":
		name = "osascript"
		data, err = s.macScriptRead(ctx, osascript)
	default:
		return Clip{}, newError(ErrNoTool, "cannot read an image from the clipboard: install pngpaste (brew install pngpaste)")
	}
	switch {
	case stderrHas(err, macNoImage()):
		return Clip{}, emptyError()
	case errors.Is(err, errTooMuch):
		return Clip{}, s.tooLargeImage()
	case err != nil:
		return Clip{}, readFailed(err, "")
	case len(data) == 0:
		return Clip{}, emptyError()
	}
	return Clip{Image: data, Tool: name}, nil
}

// macScriptRead has osascript write the clipboard's PNG into a temporary
// file, then reads it with the image cap.
func (s System) macScriptRead(ctx context.Context, osascript string) ([]byte, error) {
	dir, err := os.MkdirTemp("", "parley-clipboard-")
	if err != nil {
		return nil, fmt.Errorf("making a temporary folder failed (%w)", err)
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "clipboard.png")
	args := append(scriptArgs(macReadPNG), file)
	if _, err := s.run(ctx, tool{name: "osascript", path: osascript, args: args, limit: stderrKeep}); err != nil {
		return nil, err
	}
	return readCapped(file, s.maxImage())
}

// scriptArgs passes an AppleScript to osascript one line per -e.
func scriptArgs(script string) []string {
	var args []string
	for _, l := range strings.Split(script, "\n") {
		args = append(args, "-e", l)
	}
	return args
}

// readCapped reads a file a tool wrote, at most limit bytes (errTooMuch
// past that). A missing file is empty: the tool had nothing to write.
func readCapped(path string, limit int64) ([]byte, error) {
	b, err := safefile.Read(path, limit)
	var tooLarge *safefile.TooLargeError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case errors.As(err, &tooLarge):
		return nil, errTooMuch
	case err != nil:
		return nil, fmt.Errorf("reading what the tool wrote failed (%w)", err)
	}
	return b, nil
}
