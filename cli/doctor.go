package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"parley/ui/preview"
	"parley/ui/termprobe"
)

func (a *app) doctorCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "doctor",
		Short: "Say what parley finds in this terminal: its name and version, and how pictures are drawn",
		Long: `Ask the terminal what it is (its XTVERSION answer, its device attributes,
the kitty graphics query, the sixel geometry and colour registers, the size of
a cell) and say how the chat draws pictures in it: kitty graphics with
Unicode placeholders or direct placement, sixel, iTerm2's inline images, half
blocks, or none (the images setting of the config, "parley help config").
Inside tmux it also asks tmux about the terminal it runs in.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.doctor(cmd.Context())
		},
	}
}

// terminalReport is what doctor found, ready to print.
type terminalReport struct {
	setting string
	known   preview.Known
	asked   string // "" when the terminal answered, else why it was not, or did not
	tmux    string // tmux's answer in words, "" outside tmux
}

func (a *app) doctor(ctx context.Context) error {
	cfg, err := a.loadConfig()
	if err != nil {
		return err
	}
	r := terminalReport{setting: cfg.Images}
	if r.setting == "" {
		r.setting = preview.SettingAuto
	}
	r.known.Facts, r.asked = askTerminal(a.env.Getenv)
	if a.env.Getenv("TMUX") != "" {
		t, err := preview.ProbeTmux(ctx, a.env.Getenv)
		r.known.Tmux = t
		switch {
		case err != nil:
			r.tmux = err.Error()
		default:
			r.tmux = describeTmux(t)
		}
	}
	r.write(a.env.Stdout, a.env.Getenv)
	return nil
}

// askTerminal asks the controlling terminal (/dev/tty, so it works with
// the output redirected) what it is, and says why when it could not.
func askTerminal(getenv func(string) string) (termprobe.Facts, string) {
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return termprobe.Facts{}, "not asked: there is no terminal to ask (" + err.Error() + ")"
	}
	defer tty.Close()
	f, err := termprobe.Probe(tty, termprobe.QueriesFor(getenv), termprobe.ProbeTimeout)
	if w, h, ok := termprobe.CellSize(tty); ok && f.CellWidth == 0 {
		f.CellWidth, f.CellHeight = w, h
	}
	if err != nil {
		return f, err.Error()
	}
	return f, ""
}

func describeTmux(t preview.Tmux) string {
	var parts []string
	client := t.ClientTerm
	if client == "" {
		client = "none attached"
	}
	parts = append(parts, "client terminal "+client)
	if t.ClientType != "" {
		parts = append(parts, "which says it is "+t.ClientType)
	}
	if t.Passthrough {
		parts = append(parts, "allow-passthrough on")
	} else {
		parts = append(parts, "allow-passthrough off")
	}
	if t.RGB {
		parts = append(parts, "24-bit colour")
	}
	return strings.Join(parts, ", ")
}

// write prints the report: every answer the terminal gave, untrusted, is
// printable ASCII already (termprobe keeps nothing else).
func (r terminalReport) write(w io.Writer, getenv func(string) string) {
	c := preview.Choose(r.setting, getenv, r.known)
	f := r.known.Facts
	reportRow(w, "terminal:", c.Terminal.String())
	if f.Version != "" {
		reportRow(w, "  XTVERSION:", f.Version)
	}
	if r.asked != "" {
		reportRow(w, "  answers:", r.asked)
	}
	if f.Answered {
		reportRow(w, "  sixel:", yesNo(f.Sixel, sixelDetail(f)))
		reportRow(w, "  kitty graphics:", yesNo(f.KittyGraphics, ""))
		if f.CellWidth > 0 {
			reportRow(w, "  cell:", fmt.Sprintf("%d×%d pixels", f.CellWidth, f.CellHeight))
		}
	}
	if r.tmux != "" {
		reportRow(w, "tmux:", r.tmux)
	}
	reportRow(w, "pictures:", fmt.Sprintf("%s (images = %q)", c.Mode.Describe(), r.setting))
}

// reportLabel is the width of the report's labels: the longest,
// "  kitty graphics:", and a space, so every value starts in one column.
const reportLabel = len("  kitty graphics:") + 1

// reportRow writes one line of the report: a label and its value.
func reportRow(w io.Writer, label, value string) {
	fmt.Fprintf(w, "%-*s%s\n", reportLabel, label, value)
}

func yesNo(b bool, detail string) string {
	if !b {
		return "no"
	}
	if detail != "" {
		return "yes, " + detail
	}
	return "yes"
}

func sixelDetail(f termprobe.Facts) string {
	var parts []string
	if f.Registers > 0 {
		parts = append(parts, strconv.Itoa(f.Registers)+" colour registers")
	}
	if f.SixelWidth > 0 {
		parts = append(parts, fmt.Sprintf("up to %d×%d pixels", f.SixelWidth, f.SixelHeight))
	}
	return strings.Join(parts, ", ")
}
