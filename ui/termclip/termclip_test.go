package termclip

import (
	"bytes"
	"encoding/base64"
	"errors"
	"strings"
	"testing"
)

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

func reply(meta, payload string) string { return "\x1b]5522;" + meta + ";" + payload + "\x1b\\" }

// TestKittyReadsAnImageInChunks: the request asks for PNG and text; the
// image wins, its chunks decoded whether each is padded or cut anywhere.
func TestKittyReadsAnImageInChunks(t *testing.T) {
	var r Reader
	st := r.Start(true, 1<<20)
	if st.Write != "\x1b]5522;type=read;"+b64("image/png text/plain")+"\x1b\\" || st.Wait != KittyWait {
		t.Fatalf("start %+v", st)
	}
	img := bytes.Repeat([]byte("\x89PNG pixels "), 50)
	all := base64.StdEncoding.EncodeToString(img)
	if _, ok := r.Feed(reply("type=read:status=OK", "")); !ok {
		t.Fatal("OK not taken")
	}
	for i := 0; i < len(all); i += 37 {
		if st, ok := r.Feed(reply("type=read:status=DATA:mime="+b64("image/png"), all[i:min(i+37, len(all))])); !ok || st.Done {
			t.Fatalf("chunk at %d: %+v %v", i, st, ok)
		}
	}
	r.Feed(reply("type=read:status=DATA:mime="+b64("text/plain"), b64("also text")))
	st, _ = r.Feed("\x1b]5522;type=read:status=DONE\x07")
	if !st.Done || !bytes.Equal(st.Result.Image, img) || st.Result.Err != nil {
		t.Fatalf("done with %d bytes, %v", len(st.Result.Image), st.Result.Err)
	}
	if _, ok := r.Feed(reply("type=read:status=DONE", "")); ok {
		t.Fatal("a reply after the end was taken")
	}
}

func TestKittyTextPermissionAndFallback(t *testing.T) {
	var r Reader
	r.Start(true, 1<<20)
	r.Feed(reply("type=read:status=DATA:mime="+b64("text/plain"), b64("héllo")))
	if st, _ := r.Feed(reply("type=read:status=DONE", "")); st.Result.Text != "héllo" {
		t.Fatalf("text %+v", st.Result)
	}
	r.Start(true, 1<<20)
	if st, _ := r.Feed(reply("type=read:status=EPERM", "")); !st.Done || st.Result.Err == nil || !strings.Contains(st.Result.Err.Error(), "permission denied") {
		t.Fatalf("EPERM: %+v", st)
	}
	// A terminal that cannot: OSC 52 next, and its silence is the end.
	st := r.Start(true, 1<<20)
	st = r.Expire(st.Gen)
	if !st.ReadOSC52 || r.Phase() != OSC52 {
		t.Fatalf("after kitty's silence %+v", st)
	}
	if e := r.Expire(st.Gen - 1); e.Done || e.ReadOSC52 || e.Wait != 0 {
		t.Fatal("an earlier wait's end acted")
	}
	if st = r.Expire(st.Gen); !st.Done || !errors.Is(st.Result.Err, ErrNoAnswer) {
		t.Fatalf("after OSC 52's silence %+v", st)
	}
	st = r.Start(false, 1<<20)
	if !st.ReadOSC52 {
		t.Fatalf("a terminal without kitty's protocol: %+v", st)
	}
	if st = r.OSC52Text("copied words"); st.Result.Text != "copied words" {
		t.Fatalf("OSC 52 %+v", st)
	}
}

// TestKittyLimit: data past the limit ends the read before it is decoded.
func TestKittyLimit(t *testing.T) {
	var r Reader
	r.Start(true, 10)
	st, _ := r.Feed(reply("type=read:status=DATA:mime="+b64("image/png"), b64(strings.Repeat("x", 40))))
	if !st.Done || st.Result.Err == nil || !strings.Contains(st.Result.Err.Error(), "larger than parley reads") {
		t.Fatalf("%+v", st)
	}
	if _, ok := r.Feed("\x1b]52;c;" + b64("x") + "\x07"); ok {
		t.Fatal("an OSC 52 reply was taken for kitty's")
	}
}
