// Command fakegateway serves parley's fake gateway (package fake) on an
// address, so parley can be tried from a shell without a real gateway.
//
// It prints the base URL (ending in /v1) on stdout, alone on its line, and
// serves in the foreground until interrupted (Ctrl-C), so run it in a
// terminal of its own or in the background with &:
//
//	go run ./api/fake/fakegateway -addr 127.0.0.1:8089 -mode markdown -dps 30 &
//	OPENAI_BASE_URL=http://127.0.0.1:8089/v1 OPENAI_API_KEY=test-key parley ask -m gpt-4o "hi"
//
// Flags:
//
//	-addr ADDR   listen address (default 127.0.0.1:0: a free port)
//	-key KEY     bearer key clients must send (default "test-key"; "" = no check)
//	-mode MODE   chat replies: "echo" ("You said: ...") or "markdown" (a long
//	             Markdown answer with headings, a list, a table and a code block)
//	-dps N       content deltas per second when streaming (default 20; 0 = no pause)
//	-runes N     runes per delta (default 4)
//	-reasoning HOW  send reasoning before each answer, the way gateways do:
//	             "reasoning_content", "reasoning" or "think" (<think> in the content)
//
// The models are fake.DefaultModels: gpt-4o, gpt-4o-mini (vision, usage),
// llama3 (plain chat), llava (vision), dall-e-2, dall-e-3, gpt-image-1.
// Image generation and editing answer with real PNGs.
package main

import (
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"

	"parley/api/fake"
)

const markdownAnswer = "# Brewing a good cup of tea\n\n" +
	"Tea rewards a little care. Here is a short guide, with the *why* behind each step.\n\n" +
	"## What you need\n\n" +
	"- Fresh, cold water (re-boiled water tastes flat)\n" +
	"- Loose leaves or a good bag\n" +
	"- A timer, because **steeping time matters more than anything else**\n\n" +
	"## Temperatures and times\n\n" +
	"| Tea | Water | Steep |\n" +
	"|-----|-------|-------|\n" +
	"| Green | 75–80 °C | 2–3 min |\n" +
	"| Oolong | 85–90 °C | 3–5 min |\n" +
	"| Black | 95–100 °C | 3–5 min |\n" +
	"| Herbal | 100 °C | 5–7 min |\n\n" +
	"## A timer in Go\n\n" +
	"```go\n" +
	"package main\n\n" +
	"import (\n\t\"fmt\"\n\t\"time\"\n)\n\n" +
	"func main() {\n" +
	"\tsteep := 3 * time.Minute\n" +
	"\tfmt.Println(\"steeping for\", steep)\n" +
	"\ttime.Sleep(steep)\n" +
	"\tfmt.Println(\"your tea is ready\")\n" +
	"}\n" +
	"```\n\n" +
	"### Steps\n\n" +
	"1. Heat the water to the temperature in the table.\n" +
	"2. Warm the pot or cup with a splash of hot water, then pour it out.\n" +
	"3. Add about `2 g` of leaves per `200 ml` of water.\n" +
	"4. Steep, then remove the leaves so the tea does not turn bitter.\n\n" +
	"> A good cup of tea is a small, daily act of patience.\n\n" +
	"Enjoy! 🍵\n"

// reasoningText is what -reasoning sends before each answer.
const reasoningText = "The user wrote something; I should answer it.\n\n" +
	"First I read the message. Then I decide what to say. This thinking is sent apart from the answer."

func main() {
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, os.Interrupt, syscall.SIGTERM)
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr, stop))
}

// run serves until stop receives; it returns the exit status.
func run(args []string, stdout, stderr io.Writer, stop <-chan os.Signal) int {
	fs := flag.NewFlagSet("fakegateway", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:0", "listen address")
	key := fs.String("key", fake.DefaultAPIKey, `bearer key clients must send ("" = no check)`)
	mode := fs.String("mode", "echo", `chat replies: "echo" or "markdown"`)
	dps := fs.Float64("dps", 20, "content deltas per second when streaming (0 = no pause)")
	runes := fs.Int("runes", 4, "runes per content delta")
	reasoning := fs.String("reasoning", "", `send reasoning before each answer: "reasoning_content", "reasoning" or "think" ("" = none)`)
	fs.Usage = func() {
		fmt.Fprint(stderr, `Usage: fakegateway [-addr ADDR] [-key KEY] [-mode echo|markdown] [-dps N] [-runes N] [-reasoning HOW]

Serves parley's fake gateway, prints its base URL on stdout and stays in the
foreground until interrupted (Ctrl-C): run it in a terminal of its own, or in
the background with & and stop it with kill %1.

`)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *mode != "echo" && *mode != "markdown" {
		fmt.Fprintf(stderr, "fakegateway: -mode must be \"echo\" or \"markdown\", not %q\n", *mode)
		return 2
	}
	switch *reasoning {
	case "", fake.ReasoningContent, fake.ReasoningField, fake.ReasoningThink:
	default:
		fmt.Fprintf(stderr, "fakegateway: -reasoning must be \"reasoning_content\", \"reasoning\" or \"think\", not %q\n", *reasoning)
		return 2
	}
	if *dps < 0 || *runes < 1 {
		fmt.Fprintln(stderr, "fakegateway: -dps must be 0 or more and -runes 1 or more")
		return 2
	}
	l, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "fakegateway: cannot listen on %s: %v\n", *addr, err)
		return 1
	}
	srv, err := fake.Listen(fake.WithListener(l), fake.WithAPIKey(*key))
	if err != nil {
		fmt.Fprintf(stderr, "fakegateway: %v\n", err)
		return 1
	}
	defer srv.Close()

	def := fake.Reply{Path: "/chat/completions", DeltaRunes: *runes}
	if *dps > 0 {
		def.Interval = time.Duration(float64(time.Second) / *dps)
	}
	if *mode == "markdown" {
		def.Text = markdownAnswer
	}
	if *reasoning != "" {
		def.Reasoning, def.ReasoningAs = reasoningText, *reasoning
	}
	srv.SetDefault(def)

	fmt.Fprintln(stdout, srv.URL())
	fmt.Fprintf(stderr, "fakegateway: serving on %s (key %q, mode %s) in the foreground; Ctrl-C stops it\n", srv.URL(), *key, *mode)
	<-stop
	return 0
}
