package overlay

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"parley/themes"
)

// server starts a loopback HTTP server answering GET /v1/models with body
// (status 200 unless status is set).
func server(t *testing.T, status int, contentType, body string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/models" || r.Method != http.MethodGet {
			http.NotFound(w, r)
			return
		}
		if r.Header.Get("Authorization") != "" {
			t.Errorf("the probe sent credentials: %q", r.Header.Get("Authorization"))
		}
		if contentType != "" {
			w.Header().Set("Content-Type", contentType)
		}
		if status != 0 {
			w.WriteHeader(status)
		}
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1"
}

// hangingServer accepts the request and never answers until the test ends.
func hangingServer(t *testing.T) string {
	t.Helper()
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(func() { close(release); srv.Close() })
	return srv.URL + "/v1"
}

// downURL is a loopback address nothing listens on.
func downURL(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr + "/v1"
}

const modelList = `{"object":"list","data":[{"id":"llama3.2:latest","object":"model"},{"id":"qwen2.5-coder","object":"model"},{"id":""},{"id":"llama3.2:latest"}]}`

func TestProbe(t *testing.T) {
	hostile := `{"data":[{"id":"evil\u001b]52;c;aGVsbG8=\u0007"},{"id":"\u001b[2J\u001b[Hclear"}]}`
	cands := []Candidate{
		{Name: "Good", BaseURL: server(t, 0, "application/json", modelList)},
		{Name: "HTML", BaseURL: server(t, 0, "text/html", "<!doctype html><html><title>Router login</title></html>")},
		{Name: "Garbage", BaseURL: server(t, 0, "application/json", `{"data": [ {"id": "x"`)},
		{Name: "OtherJSON", BaseURL: server(t, 0, "application/json", `{"models":["a"]}`)},
		{Name: "NotFound", BaseURL: server(t, http.StatusNotFound, "text/plain", "404 page not found")},
		{Name: "Empty", BaseURL: server(t, 0, "application/json", `{"object":"list","data":[]}`)},
		{Name: "Hostile", BaseURL: server(t, 0, "application/json", hostile)},
		{Name: "Down", BaseURL: downURL(t)},
		{Name: "Hangs", BaseURL: hangingServer(t)},
	}
	start := time.Now()
	res := Probe(context.Background(), cands, 300*time.Millisecond)
	if el := time.Since(start); el > 2*time.Second {
		t.Fatalf("probing took %v: the probes are not concurrent or not bounded", el)
	}
	if len(res) != len(cands) {
		t.Fatalf("%d results for %d candidates", len(res), len(cands))
	}
	want := map[string]ProbeStatus{
		"Good": ProbeFound, "HTML": ProbeInvalid, "Garbage": ProbeInvalid, "OtherJSON": ProbeInvalid,
		"NotFound": ProbeInvalid, "Empty": ProbeFound, "Hostile": ProbeFound, "Down": ProbeDown, "Hangs": ProbeDown,
	}
	for i, r := range res {
		if r.Name != cands[i].Name {
			t.Fatalf("result %d is %s: order not kept", i, r.Name)
		}
		if r.Status != want[r.Name] {
			t.Errorf("%s: status %v, want %v (err %v)", r.Name, r.Status, want[r.Name], r.Err)
		}
		if (r.Status == ProbeFound) != (r.Err == nil) || (r.Status == ProbeFound) != (r.Reason == "") {
			t.Errorf("%s: status %v with err %v, reason %q", r.Name, r.Status, r.Err, r.Reason)
		}
	}
	if got := strings.Join(res[0].Models, ","); got != "llama3.2:latest,qwen2.5-coder" {
		t.Errorf("models: %q (empty and repeated ids are dropped)", got)
	}
	if len(res[5].Models) != 0 {
		t.Errorf("empty list: %v", res[5].Models)
	}
	if res[6].Models[0] != "evil\x1b]52;c;aGVsbG8=\x07" {
		t.Errorf("hostile ids are kept raw for use; got %q", res[6].Models[0])
	}
	if res[4].Reason != "answered 404 Not Found" {
		t.Errorf("404 reason: %q", res[4].Reason)
	}
	if res[7].Reason != "not running" {
		t.Errorf("down reason: %q", res[7].Reason)
	}
	if !strings.Contains(res[8].Reason, "no answer within") {
		t.Errorf("hanging reason: %q", res[8].Reason)
	}

	// A cancelled context ends the probe at once.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	start = time.Now()
	res = Probe(ctx, []Candidate{{Name: "Hangs", BaseURL: hangingServer(t)}}, 5*time.Second)
	if time.Since(start) > time.Second || res[0].Status != ProbeDown {
		t.Fatalf("cancelled probe: %v after %v", res[0].Status, time.Since(start))
	}
}

func TestProbeRedirectIsNotFollowed(t *testing.T) {
	target := server(t, 0, "application/json", modelList)
	redirect := httptest.NewServer(http.RedirectHandler(target+"/models", http.StatusFound))
	t.Cleanup(redirect.Close)
	res := Probe(context.Background(), []Candidate{{Name: "R", BaseURL: redirect.URL + "/v1"}}, time.Second)
	if res[0].Status != ProbeInvalid || !strings.Contains(res[0].Reason, "302") {
		t.Fatalf("redirect: %+v", res[0])
	}
}

func TestDefaultCandidates(t *testing.T) {
	want := map[string]string{
		"Ollama":    "http://127.0.0.1:11434/v1",
		"LM Studio": "http://127.0.0.1:1234/v1",
		"llama.cpp": "http://127.0.0.1:8080/v1",
	}
	got := DefaultCandidates()
	if len(got) != len(want) {
		t.Fatalf("%d candidates", len(got))
	}
	for _, c := range got {
		if want[c.Name] != c.BaseURL {
			t.Errorf("%s: %s, want %s", c.Name, c.BaseURL, want[c.Name])
		}
	}
}

// runCmd runs a command the way Bubble Tea would and returns its message.
func runCmd(t *testing.T, cmd tea.Cmd) tea.Msg {
	t.Helper()
	if cmd == nil {
		t.Fatal("no command")
	}
	return cmd()
}

func newSetup(t *testing.T, w, h int, cands []Candidate) Setup {
	t.Helper()
	ctx := testCtx(t, w, h)
	s := NewSetup(ctx, SetupOptions{
		ConfigPath: "/home/ada/.config/parley/config.toml",
		Candidates: cands,
		Timeout:    500 * time.Millisecond,
	})
	s.SetSize(w, h)
	return s
}

// probed starts the setup's probe and feeds it the result.
func probed(t *testing.T, s Setup) Setup {
	t.Helper()
	s, cmd := s.start()
	msg := runCmd(t, cmd)
	s, res, _ := s.update(msg)
	if res.Action != SetupNone || s.Probing() {
		t.Fatalf("after the probe: %+v, probing %v", res, s.Probing())
	}
	return s
}

func keysSetup(t *testing.T, s Setup, ks ...string) (Setup, SetupResult, tea.Cmd) {
	t.Helper()
	var res SetupResult
	var cmd tea.Cmd
	for _, k := range ks {
		s, res, cmd = s.update(press(k))
	}
	return s, res, cmd
}

func TestSetupUsesFoundServer(t *testing.T) {
	good := server(t, 0, "application/json", modelList)
	cands := []Candidate{
		{Name: "Ollama", BaseURL: good},
		{Name: "LM Studio", BaseURL: downURL(t)},
		{Name: "llama.cpp", BaseURL: server(t, 0, "text/html", "<html>hello</html>")},
	}
	for _, sz := range [][2]int{{80, 24}, {40, 12}} {
		s := newSetup(t, sz[0], sz[1], cands)
		s, cmd := s.start()
		v := plain(s.View())
		requireArea(t, s.View(), sz[0], sz[1])
		if !strings.Contains(v, "looking for") {
			t.Fatalf("%v: no probing state:\n%s", sz, v)
		}
		// Keys while probing: r does not start a second probe; quit works.
		if _, _, c := s.update(press("r")); c != nil {
			t.Fatalf("%v: r while probing started another probe", sz)
		}
		s, res, _ := s.update(runCmd(t, cmd))
		if res.Action != SetupNone {
			t.Fatalf("probe result: %+v", res)
		}
		v = plain(s.View())
		requireArea(t, s.View(), sz[0], sz[1])
		for _, want := range []string{"Ollama", good, "llama3.2:latest", "llama.cpp", "LM Studio"} {
			if !strings.Contains(v, want) {
				t.Errorf("%v: result view lacks %q:\n%s", sz, want, v)
			}
		}
		if !strings.Contains(v, "▸ ✓ Ollama") {
			t.Errorf("%v: the found server is not selected:\n%s", sz, v)
		}

		// enter: use it for this session with the first model.
		_, res, _ = keysSetup(t, s, "enter")
		if res != (SetupResult{Action: SetupUse, Server: "Ollama", BaseURL: good, Model: "llama3.2:latest"}) {
			t.Fatalf("%v: enter: %+v", sz, res)
		}
		// s: the same, and save it.
		_, res, _ = keysSetup(t, s, "s")
		if res.Action != SetupUse || !res.Save || res.BaseURL != good {
			t.Fatalf("%v: s: %+v", sz, res)
		}
		// m: choose another model in a picker, then use it.
		s2, _, _ := keysSetup(t, s, "m")
		pv := plain(s2.View())
		requireArea(t, s2.View(), sz[0], sz[1])
		if !strings.Contains(pv, "Models on Ollama") || !strings.Contains(pv, "qwen2.5-coder") {
			t.Fatalf("%v: model picker:\n%s", sz, pv)
		}
		s2, _, _ = keysSetup(t, s2, "down", "enter")
		if !strings.Contains(plain(s2.View()), "model qwen2.5-coder") {
			t.Fatalf("%v: chosen model not shown:\n%s", sz, plain(s2.View()))
		}
		_, res, _ = keysSetup(t, s2, "enter")
		if res.Model != "qwen2.5-coder" || res.Action != SetupUse {
			t.Fatalf("%v: after choosing a model: %+v", sz, res)
		}
		// In the model picker q types, ctrl+c still quits.
		s2, _, _ = keysSetup(t, s, "m")
		if s2, res, _ = keysSetup(t, s2, "q"); res.Action != SetupNone || s2.picker.Query() != "q" {
			t.Fatalf("%v: q in the model picker: %+v, query %q", sz, res, s2.picker.Query())
		}
		if _, res, _ = keysSetup(t, s2, "ctrl+c"); res.Action != SetupQuit {
			t.Fatalf("%v: ctrl+c in the model picker: %+v", sz, res)
		}
		// esc in the model picker goes back without changing the model.
		s3, _, _ := keysSetup(t, s, "m", "down", "esc")
		if _, res, _ = keysSetup(t, s3, "enter"); res.Model != "llama3.2:latest" {
			t.Fatalf("%v: esc changed the model: %+v", sz, res)
		}
		// The list: server, look again, quit; it wraps around.
		s4, res, _ := keysSetup(t, s, "down", "down", "enter")
		if res.Action != SetupQuit {
			t.Fatalf("%v: enter on Quit: %+v", sz, res)
		}
		s4, _, _ = keysSetup(t, s4, "down")
		if _, res, _ = keysSetup(t, s4, "enter"); res.Action != SetupUse {
			t.Fatalf("%v: down from Quit does not wrap to the server: %+v", sz, res)
		}
		s5, _, cmd := keysSetup(t, s, "up", "up", "enter") // quit, then look again
		if cmd == nil || !s5.Probing() {
			t.Fatalf("%v: enter on Look again starts no probe", sz)
		}
		// While it looks again, the old results are neither shown nor usable.
		if v := plain(s5.View()); strings.Contains(v, "✓ Ollama") || !strings.Contains(v, "looking for") {
			t.Fatalf("%v: re-probe view:\n%s", sz, v)
		}
		if _, res, c := keysSetup(t, s5, "enter"); res.Action != SetupNone || c != nil {
			t.Fatalf("%v: enter while looking again: %+v, cmd %v", sz, res, c != nil)
		}
		if _, res, _ := keysSetup(t, s5, "s"); res.Action != SetupNone {
			t.Fatalf("%v: s while looking again: %+v", sz, res)
		}
	}
}

func TestSetupNothingFound(t *testing.T) {
	cands := []Candidate{
		{Name: "Ollama", BaseURL: downURL(t)},
		{Name: "LM Studio", BaseURL: downURL(t)},
		{Name: "llama.cpp", BaseURL: server(t, 0, "application/json", `{"object":"list","data":[]}`)},
	}
	s := probed(t, newSetup(t, 80, 24, cands))
	v := plain(s.View())
	requireArea(t, s.View(), 80, 24)
	// Readable at 80x24: everything on one screen, nothing to scroll.
	for _, want := range []string{
		"OPENAI_API_KEY", "OPENAI_BASE_URL", "/home/ada/.config/parley/config.toml",
		`base_url = "https://api.openai.com/v1"`, `api_key_env = "OPENAI_API_KEY"`,
		"No usable server answered", "ollama serve", "press r", "or set the variables above and restart",
		"not running: Ollama", "lists no models yet", "▸ Look again", "Quit", "q quit",
	} {
		if !strings.Contains(v, want) {
			t.Errorf("80x24 lacks %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "pgdn for more") {
		t.Errorf("80x24 needs scrolling:\n%s", v)
	}
	// enter and s on a server-less list do not use anything.
	if _, res, _ := keysSetup(t, s, "s"); res.Action != SetupNone {
		t.Fatalf("s with nothing found: %+v", res)
	}
	// r probes again; a stale result from the earlier run is ignored.
	s2, _, cmd := keysSetup(t, s, "r")
	if cmd == nil || !s2.Probing() {
		t.Fatal("r does not probe again")
	}
	if !strings.Contains(plain(s2.View()), "looking for") {
		t.Fatalf("re-probe shows no probing state:\n%s", plain(s2.View()))
	}
	stale := ProbedMsg{Gen: 1, Results: []ProbeResult{{Candidate: cands[0], Status: ProbeFound, Models: []string{"x"}}}}
	s2, _, _ = s2.update(stale)
	if !s2.Probing() {
		t.Fatal("a stale probe result ended the new probe")
	}
	s2, _, _ = s2.update(runCmd(t, cmd))
	if s2.Probing() || len(s2.Results()) != 3 {
		t.Fatal("the new probe's result was not taken")
	}

	// Usable at 40x12: the advice and the choices show; the explanation
	// scrolls.
	s = probed(t, newSetup(t, 40, 12, cands))
	v = plain(s.View())
	requireArea(t, s.View(), 40, 12)
	for _, want := range []string{"Start a server", "ollama serve", "Look again", "Quit", "pgdn for more"} {
		if !strings.Contains(v, want) {
			t.Errorf("40x12 lacks %q:\n%s", want, v)
		}
	}
	// pgdn gives the screen to the explanation; scrolling shows all of it.
	s, _, _ = keysSetup(t, s, "pgdown")
	v = plain(s.View())
	requireArea(t, s.View(), 40, 12)
	if !strings.Contains(v, "esc back") || strings.Contains(v, "Look again") {
		t.Fatalf("40x12 reading mode:\n%s", v)
	}
	seen := []string{v}
	for range 10 {
		s, _, _ = keysSetup(t, s, "pgdown")
		seen = append(seen, plain(s.View()))
		requireArea(t, s.View(), 40, 12)
	}
	all := strings.Join(seen, "\n")
	for _, want := range []string{"OPENAI_API_KEY", "OPENAI_BASE_URL", "config.toml", `api_key_env = "OPENAI_API_KEY"`} {
		if !strings.Contains(all, want) {
			t.Errorf("40x12: scrolling never shows %q:\n%s", want, all)
		}
	}
	if strings.Contains(seen[len(seen)-1], "pgdn for more") {
		t.Errorf("the end of the text still says there is more:\n%s", seen[len(seen)-1])
	}
	s, _, _ = keysSetup(t, s, "home")
	if !strings.Contains(plain(s.View()), "parley talks to") {
		t.Errorf("home does not go back to the top:\n%s", plain(s.View()))
	}
	// esc brings the servers back; enter there works again.
	s, _, _ = keysSetup(t, s, "esc")
	if v := plain(s.View()); !strings.Contains(v, "Look again") {
		t.Fatalf("esc does not leave reading mode:\n%s", v)
	}
	if _, _, cmd := keysSetup(t, s, "enter"); cmd == nil {
		t.Fatal("enter on Look again after reading starts no probe")
	}
	// q quits from reading mode too.
	s, _, _ = keysSetup(t, s, "pgdown")
	if _, res, _ := keysSetup(t, s, "q"); res.Action != SetupQuit {
		t.Fatalf("q in reading mode: %+v", res)
	}
}

func TestSetupQuitKeys(t *testing.T) {
	s := newSetup(t, 80, 24, []Candidate{{Name: "Ollama", BaseURL: downURL(t)}})
	for _, k := range []string{"q", "ctrl+c", "ctrl+q"} {
		if _, res, _ := keysSetup(t, s, k); res.Action != SetupQuit {
			t.Errorf("%s: %+v", k, res)
		}
	}
	// Before any probe: no crash, a way forward.
	v := plain(s.View())
	requireArea(t, s.View(), 80, 24)
	if !strings.Contains(v, "press r") {
		t.Errorf("unprobed state:\n%s", v)
	}
	for _, k := range []string{"a", "enter", "m", "esc", "tab", "down", "end", "home"} {
		s, _, _ = keysSetup(t, s, k)
		requireArea(t, s.View(), 80, 24)
	}
}

func TestSetupHostileServer(t *testing.T) {
	hostile := `{"data":[{"id":"evil\u001b]52;c;aGVsbG8=\u0007"},{"id":"\u001b]8;;http://x\u0007link\u001b]8;;\u0007"}]}`
	cands := []Candidate{{Name: "Ollama", BaseURL: server(t, 0, "application/json", hostile)}}
	for _, sz := range [][2]int{{80, 24}, {40, 12}} {
		s := probed(t, newSetup(t, sz[0], sz[1], cands))
		views := []string{s.View()}
		s2, _, _ := keysSetup(t, s, "m")
		views = append(views, s2.View())
		for _, v := range views {
			requireArea(t, v, sz[0], sz[1])
			if strings.Contains(v, "\x1b]") || strings.Contains(v, "\x07") {
				t.Fatalf("%v: an OSC sequence reached the screen: %q", sz, v)
			}
		}
		if !strings.Contains(plain(views[0]), "evil␛]52;c;aGVsbG8=␇") {
			t.Fatalf("%v: placeholders missing:\n%s", sz, plain(views[0]))
		}
		if !strings.Contains(plain(views[1]), "␛]8;;http://x␇link") {
			t.Fatalf("%v: picker placeholders missing:\n%s", sz, plain(views[1]))
		}
		// The id is handed back raw: it is the model's name on that server.
		if _, res, _ := keysSetup(t, s, "enter"); res.Model != "evil\x1b]52;c;aGVsbG8=\x07" {
			t.Fatalf("model %q", res.Model)
		}
	}
}

// TestSetupSmallScreenNamesTheVariables: at 40x12 the servers take most of
// the screen, and the explanation is cut; what to set still shows without
// scrolling, in every state, and pgdn still opens the whole text.
func TestSetupSmallScreenNamesTheVariables(t *testing.T) {
	for _, sz := range [][2]int{{40, 12}, {40, 10}, {60, 14}} {
		states := goldenStates(t, themes.Dark, false, sz[0], sz[1])
		for _, name := range []string{"setup-probing", "setup-found", "setup-none"} {
			v := plain(states[name])
			requireArea(t, states[name], sz[0], sz[1])
			for _, want := range []string{"OPENAI_API_KEY", "OPENAI_BASE_URL", "pgdn for more"} {
				if !strings.Contains(v, want) {
					t.Errorf("%s at %v lacks %q without scrolling:\n%s", name, sz, want, v)
				}
			}
		}
	}
	// Where everything fits there is no summary: the full text says it.
	big := plain(goldenStates(t, themes.Dark, false, 80, 24)["setup-found"])
	if strings.Contains(big, "No gateway is configured") || !strings.Contains(big, "parley talks to") {
		t.Errorf("80x24 shows the summary instead of the explanation:\n%s", big)
	}

	ctx := testCtx(t, 40, 12)
	s := NewSetup(ctx, SetupOptions{ConfigPath: "/home/ada/.config/parley/config.toml"})
	s.SetSize(40, 12)
	s, _ = s.start()
	s, _, _ = keysSetup(t, s, "pgdown")
	if v := plain(s.View()); !strings.Contains(v, "parley talks to") || !strings.Contains(v, "esc back") {
		t.Errorf("pgdn does not open the whole explanation:\n%s", v)
	}
}

// At 40x12 a command or the config path never breaks inside itself: it is
// whole on one line or cut with an ellipsis, and the screen says to widen
// the window to copy it.
func TestSetupNeverBreaksACommand(t *testing.T) {
	ctx := testCtx(t, 40, 12)
	s := NewSetup(ctx, SetupOptions{ConfigPath: "/home/someone-with-a-long-name/.config/parley/config.toml"})
	lines := s.explanation(plainLook(), 36)
	text := ansi.Strip(strings.Join(lines, "\n"))
	for _, cmd := range []string{`export OPENAI_API_KEY="sk-…"`, `api_key_env = "OPENAI_API_KEY"`, `[[providers]]`} {
		if !strings.Contains(text, cmd) {
			t.Errorf("%q is broken or missing:\n%s", cmd, text)
		}
	}
	cutSeen := false
	for _, l := range lines {
		l = strings.TrimSpace(ansi.Strip(l))
		if strings.HasPrefix(l, "export OPENAI_BASE_URL") || strings.HasPrefix(l, "base_url") || strings.HasPrefix(l, "/home/") {
			if !strings.HasSuffix(l, "…") {
				t.Errorf("a line too long for 36 cells is not cut whole: %q", l)
			}
			cutSeen = true
		}
		if ansi.StringWidth(l) > 36 {
			t.Errorf("line wider than 36 cells: %q", l)
		}
	}
	if !cutSeen || !strings.Contains(strings.Join(strings.Fields(text), " "), "widen the window to copy") {
		t.Errorf("no cut line or no widen note:\n%s", text)
	}
}

// The setup screen says how to try parley without a gateway (--demo),
// without scrolling, whatever the probe found.
func TestSetupMentionsTheDemo(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		states := goldenStates(t, themes.Dark, false, sz[0], sz[1])
		for _, name := range []string{"setup-probing", "setup-found", "setup-none"} {
			if v := plain(states[name]); !strings.Contains(v, "parley --demo") {
				t.Errorf("%s at %v does not mention parley --demo:\n%s", name, sz, v)
			}
		}
	}
	// On a small screen the advice when nothing answered names it.
	s := probed(t, newSetup(t, 40, 12, []Candidate{{Name: "Ollama", BaseURL: downURL(t)}}))
	if v := plain(s.View()); !strings.Contains(strings.Join(strings.Fields(v), " "), "parley --demo") {
		t.Errorf("40x12 with nothing found does not mention parley --demo:\n%s", v)
	}
}

// The setup chooses who answers the chat: image-only models a server
// lists (dall-e-3, gpt-image-1) are neither the default model nor in its
// picker; a server with only those says so.
func TestSetupOffersChatModelsOnly(t *testing.T) {
	list := `{"object":"list","data":[{"id":"dall-e-3"},{"id":"gpt-image-1"},{"id":"llama3.2:latest"},{"id":"dall-e-2"},{"id":"qwen2.5-coder"}]}`
	images := `{"object":"list","data":[{"id":"dall-e-3"},{"id":"gpt-image-1"}]}`
	cands := []Candidate{{Name: "Ollama", BaseURL: server(t, 0, "application/json", list)}, {Name: "Images", BaseURL: server(t, 0, "application/json", images)}}
	s := probed(t, newSetup(t, 80, 24, cands))
	if got := s.Results()[0].Models; strings.Join(got, ",") != "llama3.2:latest,qwen2.5-coder" {
		t.Fatalf("the chat models are %v", got)
	}
	v := plain(s.View())
	if !strings.Contains(v, "model llama3.2:latest · m: pick from 2") || !strings.Contains(v, "lists only image models") {
		t.Fatalf("the servers:\n%s", v)
	}
	if _, res, _ := keysSetup(t, s, "enter"); res.Model != "llama3.2:latest" {
		t.Fatalf("enter uses %q", res.Model)
	}
	s, _, _ = keysSetup(t, s, "m")
	pv := plain(s.View())
	if !strings.Contains(pv, "qwen2.5-coder") {
		t.Fatalf("the picker:\n%s", pv)
	}
	for _, img := range []string{"dall-e-3", "gpt-image-1", "dall-e-2"} {
		if strings.Contains(pv, img) {
			t.Errorf("the picker offers %s:\n%s", img, pv)
		}
	}
}
