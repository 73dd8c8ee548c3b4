package ui

import (
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"parley/api/apitest"
	"parley/conversation"
)

// imageHarness is a chat whose images land in a folder of the test.
func imageHarness(t *testing.T, w, h int) (*harness, string) {
	t.Helper()
	pics := filepath.Join(t.TempDir(), "pics")
	env := map[string]string{"XDG_CONFIG_HOME": t.TempDir(), "XDG_PICTURES_DIR": pics, "HOME": t.TempDir()}
	hs := newHarness(t, w, h, func(o *Options) { o.Getenv = func(k string) string { return env[k] } })
	return hs, filepath.Join(pics, "parley")
}

func pngFiles(t *testing.T, dir string) []string {
	t.Helper()
	ents, _ := os.ReadDir(dir)
	var out []string
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".png") {
			f, err := os.Open(filepath.Join(dir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			_, err = png.Decode(f)
			f.Close()
			if err != nil {
				t.Fatalf("%s is no valid PNG: %v", e.Name(), err)
			}
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	return out
}

func TestImageCommandMakesTwoImagesInTheTranscript(t *testing.T) {
	h, dir := imageHarness(t, 120, 50)
	h.typeText("/image a red fox in snow --n 2 --model gpt-image-1 --size 1024x1024")
	h.key("enter")
	h.wait("the image turn", func() bool {
		n := h.m.conv.Len()
		return n > 0 && h.m.conv.At(n-1).State == conversation.StateDone
	})
	files := pngFiles(t, dir)
	if len(files) != 2 {
		t.Fatalf("want two PNGs in %s, got %v", dir, files)
	}
	reqs := h.srv.RequestsTo("/images/generations")
	if len(reqs) != 1 || reqs[0].Image == nil || reqs[0].Image.N != 2 || reqs[0].Image.Size != "1024x1024" || reqs[0].Image.Prompt != "a red fox in snow" {
		t.Fatalf("requests %+v", reqs)
	}
	h.wait("paths and pictures", func() bool {
		scr := h.screen()
		return strings.Contains(scr, filepath.Base(files[0])) && strings.Contains(scr, filepath.Base(files[1])) &&
			strings.Count(h.m.View().Content, "▀") > 100
	})
	if !strings.Contains(h.screen(), "a red fox in snow") {
		t.Fatalf("the prompt is not shown:\n%s", h.screen())
	}
}

func TestImageRefusedBeforeAnyRequest(t *testing.T) {
	h, dir := imageHarness(t, 120, 40)
	for _, c := range []struct{ line, want string }{
		{"/image --model gpt-image-1", "missing its arguments"},
		{"/image a fox --model gpt-image-1 --size 300x300", "1024x1024"},
		{"/image a fox --model gpt-4o", "cannot generate images"},
		{"/image a fox --model gpt-image-1 --n 0", "--n"},
	} {
		h.typeText(c.line)
		h.key("enter")
		h.wait(c.want, func() bool { return strings.Contains(h.screen(), c.want) })
		if got := h.m.comp.value(); got != c.line {
			t.Fatalf("the composer holds %q after the refusal, want %q kept", got, c.line)
		}
		h.key("esc")
		h.m.comp.setValue("")
	}
	if n := h.srv.RequestCount(); n != 0 {
		t.Fatalf("%d requests were sent", n)
	}
	if files := pngFiles(t, dir); len(files) != 0 {
		t.Fatalf("files written: %v", files)
	}
}

func TestEscDuringGenerationSavesNothing(t *testing.T) {
	h, dir := imageHarness(t, 120, 40)
	h.srv.Enqueue(apitest.Reply{Path: "/images/generations", Delay: 3 * time.Second})
	h.typeText("/image a slow fox --model gpt-image-1")
	h.key("enter")
	h.wait("the status", func() bool { return strings.Contains(h.screen(), "generating 1 image with gpt-image-1") })
	h.key("esc")
	h.wait("the stop", func() bool {
		n := h.m.conv.Len()
		return n > 0 && h.m.conv.At(n-1).State == conversation.StateInterrupted
	})
	h.settle(200 * time.Millisecond)
	if files := pngFiles(t, dir); len(files) != 0 {
		t.Fatalf("files written after esc: %v", files)
	}
	if !strings.Contains(h.screen(), "nothing was saved") {
		t.Fatalf("screen:\n%s", h.screen())
	}
}

func TestFailedGenerationShowsInlineAndRetries(t *testing.T) {
	h, dir := imageHarness(t, 120, 40)
	h.srv.Enqueue(apitest.Reply{Path: "/images/generations", Status: 413, Body: `{"error":{"message":"prompt too large","type":"invalid_request_error"}}`})
	h.typeText("/image a fox --model gpt-image-1")
	h.key("enter")
	h.wait("the failure", func() bool {
		n := h.m.conv.Len()
		return n > 0 && h.m.conv.At(n-1).State == conversation.StateFailed
	})
	if !strings.Contains(h.screen(), "ctrl+r to retry") {
		t.Fatalf("no retry hint:\n%s", h.screen())
	}
	h.key("ctrl+r")
	h.wait("the retry", func() bool {
		n := h.m.conv.Len()
		return n == 1 && h.m.conv.At(0).State == conversation.StateDone
	})
	if files := pngFiles(t, dir); len(files) != 1 {
		t.Fatalf("after the retry: %v", files)
	}
}
