package imagegen

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"parley/api"
	"parley/api/apitest"
	"parley/media/mediatest"
)

func client(t *testing.T, gw *apitest.Server) *api.Client {
	t.Helper()
	c, err := api.NewClient(api.ClientConfig{BaseURL: gw.URL(), APIKey: apitest.DefaultAPIKey, UserAgent: "parley/test"})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func files(t *testing.T, dir string) []string {
	t.Helper()
	ents, _ := os.ReadDir(dir)
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	return out
}

func TestPlanRefusesBeforeAnyRequest(t *testing.T) {
	cat := api.NewCatalog(nil)
	png := mediatest.PNG(t, mediatest.Photo(32, 32))
	otherSize := mediatest.PNG(t, mediatest.Photo(16, 16))
	cases := []struct {
		name string
		r    Request
		want string
	}{
		{"empty prompt", Request{Prompt: "  ", Model: "gpt-image-1"}, "prompt is empty"},
		{"no capability", Request{Prompt: "x", Model: "gpt-4o"}, "cannot generate"},
		{"size", Request{Prompt: "x", Model: "dall-e-3", Size: "512x512"}, "1024x1024"},
		{"n", Request{Prompt: "x", Model: "dall-e-3", N: 3}, "at most 1"},
		{"no edit", Request{Prompt: "x", Model: "dall-e-3", Edit: []api.ImageFile{{Data: png}}}, "edit"},
		{"not an image", Request{Prompt: "x", Model: "gpt-image-1", Edit: []api.ImageFile{{Data: []byte("hello")}}}, "cannot edit image 1"},
		{"mask size", Request{Prompt: "x", Model: "gpt-image-1", Edit: []api.ImageFile{{Data: png}}, Mask: &api.ImageFile{Data: otherSize}}, "mask"},
	}
	for _, c := range cases {
		_, err := Plan(cat, c.r)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error saying %q", c.name, err, c.want)
		}
	}
	j, err := Plan(cat, Request{Prompt: " a fox ", Model: "gpt-image-1", N: 2, Size: "1024x1024"})
	if err != nil || j.N != 2 || j.Prompt != "a fox" || j.Generate.Size != "1024x1024" || j.Edit != nil {
		t.Fatalf("plan %+v, %v", j, err)
	}
	if got := Describe(j); got != "generating 2 images with gpt-image-1 (1024x1024)" {
		t.Fatalf("describe %q", got)
	}
}

func TestRunSavesVerifiedPNGs(t *testing.T) {
	gw := apitest.New(t)
	dir := filepath.Join(t.TempDir(), "out")
	j, err := Plan(api.NewCatalog(nil), Request{Prompt: "two foxes", Model: "gpt-image-1", N: 2, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 23, 9, 30, 0, 0, time.UTC)
	var stages []string
	res, err := Run(context.Background(), client(t, gw), j, now, func(s string) { stages = append(stages, s) })
	if err != nil {
		t.Fatal(err)
	}
	got := files(t, dir)
	if len(res.Saved) != 2 || len(res.Images) != 2 || len(got) != 2 ||
		got[0] != "20261123-093000-two-foxes-1.png" || got[1] != "20261123-093000-two-foxes-2.png" {
		t.Fatalf("saved %+v, files %v", res.Saved, got)
	}
	if len(stages) == 0 || stages[len(stages)-1] != "saving 2 images" {
		t.Fatalf("stages %q", stages)
	}
}

func TestRunCancelledSavesNothing(t *testing.T) {
	gw := apitest.New(t)
	gw.Enqueue(apitest.Reply{Path: "/images/generations", Delay: 2 * time.Second})
	dir := filepath.Join(t.TempDir(), "out")
	j, _ := Plan(api.NewCatalog(nil), Request{Prompt: "slow", Model: "gpt-image-1", Dir: dir})
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := Run(ctx, client(t, gw), j, time.Now(), nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err %v", err)
	}
	if got := files(t, dir); len(got) != 0 {
		t.Fatalf("files %v", got)
	}
}

func TestRunRefusesAReplyThatIsNoImage(t *testing.T) {
	gw := apitest.New(t)
	gw.Enqueue(apitest.Reply{Path: "/images/generations", Body: `{"created":1,"data":[{"b64_json":"aGVsbG8gd29ybGQ="}]}`})
	dir := filepath.Join(t.TempDir(), "out")
	j, _ := Plan(api.NewCatalog(nil), Request{Prompt: "x", Model: "gpt-image-1", Dir: dir})
	if _, err := Run(context.Background(), client(t, gw), j, time.Now(), nil); err == nil || !strings.Contains(err.Error(), "nothing was saved") {
		t.Fatalf("err %v", err)
	}
	if got := files(t, dir); len(got) != 0 {
		t.Fatalf("files %v", got)
	}
}

func TestRunRefusesAFolderItCannotWrite(t *testing.T) {
	gw := apitest.New(t)
	blocker := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(blocker, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	j, _ := Plan(api.NewCatalog(nil), Request{Prompt: "x", Model: "gpt-image-1", Dir: filepath.Join(blocker, "sub")})
	_, err := Run(context.Background(), client(t, gw), j, time.Now(), nil)
	var de *DirError
	if !errors.As(err, &de) || !strings.Contains(err.Error(), blocker) {
		t.Fatalf("err %v", err)
	}
	if n := gw.RequestCount(); n != 0 {
		t.Fatalf("%d requests were sent before the folder was checked", n)
	}
}
