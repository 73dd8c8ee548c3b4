package termprobe

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// recorded is a real terminal's answer to Queries, as it came (written
// down from the terminal under Xvfb with the queries parley sends), and
// the facts parley reads from it.
type recorded struct {
	file string
	want Facts
}

var recordedAnswers = []recorded{
	// xterm 379 started with -ti vt340: sixel, 256 registers once asked
	// for; its current geometry is cut to the window (1000×800 in a
	// 1200×800 window), its largest is 1000×1000, which is kept.
	{"xterm-379-vt340.answers", Facts{Version: "XTerm(379)", Sixel: true, Attributes: []int{63, 1, 2, 4, 6, 9, 15, 16, 22, 28},
		SixelWidth: 1000, SixelHeight: 1000, Registers: 256, Answered: true}},
	// Konsole 22.12.3 (Debian 12): kitty graphics and sixel both claimed.
	{"konsole-22.12.3.answers", Facts{Version: "Konsole 22.12.3", Sixel: true, Attributes: []int{62, 1, 4}, KittyGraphics: true,
		SixelWidth: 16384, SixelHeight: 16384, Registers: 256, Answered: true}},
	// foot 1.13.1 (under weston): sixel, its largest geometry kept.
	{"foot-1.13.1.answers", Facts{Version: "foot(1.13.1)", Sixel: true, Attributes: []int{62, 4, 22},
		SixelWidth: 10000, SixelHeight: 10000, Registers: 256, Answered: true}},
	// mlterm 3.9.0: no XTVERSION, 1024 registers (it keeps its own
	// number), no geometry (its failure answers name the wrong item).
	{"mlterm-3.9.0.answers", Facts{Sixel: true, Attributes: []int{63, 1, 2, 3, 4, 6, 7, 15, 18, 22, 29}, Registers: 1024, Answered: true}},
	// kitty 0.26.5: the kitty query answered, DA1 with an empty last
	// attribute.
	{"kitty-0.26.5.answers", Facts{Version: "kitty(0.26.5)", Attributes: []int{62, 0}, KittyGraphics: true, Answered: true}},
	// xterm 379 as it starts by default: no sixel, XTSMGRAPHICS failures.
	{"xterm-379.answers", Facts{Version: "XTerm(379)", Attributes: []int{64, 1, 2, 6, 9, 15, 16, 17, 18, 21, 22, 28}, Answered: true}},
	// tmux 3.3a (in kitty 0.26.5): its own name; the kitty query goes
	// nowhere.
	{"tmux-3.3a-in-kitty-0.26.5.answers", Facts{Version: "tmux 3.3a", Attributes: []int{1, 2}, Answered: true}},
}

// Konsole's KONSOLE_VERSION (221203) reads as the version its XTVERSION
// answer gives.
func TestKonsoleVersionFromTheEnvironment(t *testing.T) {
	env := map[string]string{"TERM": "xterm-256color", "KONSOLE_VERSION": "221203"}
	if got := Identify(func(k string) string { return env[k] }, Facts{}).String(); got != "Konsole 22.12.3" {
		t.Errorf("identified as %q", got)
	}
	env["KONSOLE_VERSION"] = "2x1203"
	if got := Identify(func(k string) string { return env[k] }, Facts{}).String(); got != "Konsole 2x1203" {
		t.Errorf("identified as %q", got)
	}
}

// Each recorded answer, fed to ask in pieces of 7 bytes (a sequence split
// anywhere), gives the facts the terminal told.
func TestRecordedAnswers(t *testing.T) {
	for _, rec := range recordedAnswers {
		t.Run(rec.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", rec.file))
			if err != nil {
				t.Fatal(err)
			}
			term, queries, answers := newPipeTerminal(t)
			go func() {
				buf := make([]byte, len(Queries))
				_, _ = io.ReadFull(queries, buf)
				for i := 0; i < len(data); i += 7 {
					_, _ = answers.Write(data[i:min(i+7, len(data))])
					time.Sleep(time.Millisecond)
				}
			}()
			f, err := ask(term, Queries, 5*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			w := rec.want
			if f.Version != w.Version || f.Sixel != w.Sixel || !slices.Equal(f.Attributes, w.Attributes) || f.KittyGraphics != w.KittyGraphics ||
				f.SixelWidth != w.SixelWidth || f.SixelHeight != w.SixelHeight || f.Registers != w.Registers || f.Answered != w.Answered {
				t.Errorf("facts\n %+v\nwant\n %+v", f, w)
			}
		})
	}
}
