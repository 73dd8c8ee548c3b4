package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"parley/api"
	"parley/chat"
	"parley/config"
	"parley/conversation"
	"parley/internal/bytesize"
)

// maxStdin bounds what `parley ask` reads from a pipe, so a runaway
// producer fails with a message instead of exhausting memory.
const maxStdin = 32 << 20

type askFlags struct {
	model string
	// models are every -m given; two or more (or --compare) ask each at
	// once (askcompare.go).
	models    []string
	compare   []string
	ordered   bool
	attach    []string
	noStream  bool
	usage     bool
	raw       bool
	system    string
	params    []string
	role      string
	reasoning bool
	saveDir   string
	history   historyFlags
	// tools lets the model call the MCP servers' tools; allowTools
	// pre-approves SERVER/TOOL or SERVER/* besides the config's allow.
	tools      bool
	allowTools []string
}

// register declares ask's flags on fl.
func (f *askFlags) register(fl *pflag.FlagSet) {
	fl.StringArrayVarP(&f.models, "model", "m", nil, "model to ask (default: the role's, the session's, or default_model from the config); give it 2 to 4 times to compare models")
	fl.StringSliceVar(&f.compare, "compare", nil, "ask 2 to 4 models at once, as MODEL,MODEL[,…], each answer printed under a header with its model's name")
	fl.BoolVar(&f.ordered, "ordered", false, "with several models, print the answers in the order the models were given instead of the order they finish")
	fl.StringArrayVarP(&f.attach, "attach", "a", nil, "attach an image, a text file or an http(s) image URL (repeatable)")
	fl.BoolVar(&f.noStream, "no-stream", false, "wait for the whole reply instead of streaming it")
	fl.BoolVar(&f.usage, "usage", false, "print the token usage on stderr after the reply")
	fl.BoolVar(&f.raw, "raw", false, "write the reply exactly as received, control characters included")
	fl.StringVarP(&f.system, "system", "s", "", "system prompt for this question (default: the role's, the session's, or system_prompt from the config)")
	fl.StringArrayVar(&f.params, "param", nil, "set a parameter, NAME=VALUE, such as temperature=0.2 (repeatable)")
	fl.StringVar(&f.role, "role", "", "ask with a role of the config ([[roles]]): its system prompt, model and params")
	fl.BoolVar(&f.reasoning, "reasoning", false, "write a reasoning model's thinking to stderr even when stderr is not a terminal")
	fl.BoolVar(&f.tools, "tools", false, "let the model call the tools of the config's MCP servers; only tools allowed by the config's allow or --allow-tool run, the rest are denied")
	fl.StringVar(&f.saveDir, "save-dir", "", "folder for the images a model makes with its reply (default: image_dir from the config); their paths go to stderr")
	fl.StringArrayVar(&f.allowTools, "allow-tool", nil, "with --tools, let a tool run without asking: SERVER/TOOL or SERVER/* (repeatable)")
	f.history.register(fl)
}

func (a *app) askCommand() *cobra.Command {
	var f askFlags
	cmd := &cobra.Command{
		Use:   "ask [PROMPT]",
		Short: "Send one prompt and print the reply on stdout",
		Long: `Send one prompt and print the reply on stdout as it streams.

When stdin is not a terminal its text is read and sent too, before PROMPT when
both are given, so "git diff | parley ask 'review this'" works. The reply ends
with one newline and carries no styling. Terminal control characters in the
reply are shown as visible placeholders unless --raw is given.

-a attaches images and text files (code, Markdown, logs, CSV, JSON: UTF-8 text,
recognised from the bytes), each text file sent with its name in a fenced block.
A text file over attach_max_text_bytes (256 KB), or text files over
attach_max_text_total (1 MB) together, are refused, never cut.

A reasoning model's thinking is not part of the answer: stdout gets the answer
alone, and the reasoning goes to stderr, dim, when stderr is a terminal, and
nowhere otherwise unless --reasoning is given.

--param NAME=VALUE sets a parameter for this question, over the model's and the
role's params in the config and a continued session's /set: temperature (0-2),
top_p (0-1), max_tokens, seed, stop, presence_penalty and frequency_penalty
(-2-2), reasoning_effort (minimal, low, medium, high). --role NAME asks with a
[[roles]] entry of the config: its system prompt, model and params.

Each question and its answer are kept as a new session in the history (see
"parley sessions"), unless --no-save is given or the config says
history = false. --continue adds the turn to the most recent session,
--session ID to a given one; the session's model, system prompt, role and /set
parameters carry on unless -m, -s, --role or --param say otherwise.

-m given two to four times (or --compare A,B) asks every model the same
question at once, with the same history, system prompt, parameters and files.
Each answer is printed whole under a "## MODEL" header as soon as it is done,
in the order the models finish (--ordered: in the order given). A model that
cannot see the attached images is left out with a warning. Every answer is
kept in the session as an alternative of the others. The exit status is 1 when
any model failed (its error is said on stderr; the other answers are printed).

--tools lets the model call the tools of the MCP servers of the config
([[mcp_servers]]). Nobody can be asked without a screen, so a call runs only
when the config's allow or --allow-tool SERVER/TOOL (or SERVER/*) pre-approves
it; any other call is denied, the model is told so, and stderr says which. Each
call that ran is one line on stderr; stdout gets the answer alone.`,
		Example: `  parley ask "What is the capital of Peru?"
  parley ask --continue "And of Chile?"
  parley ask -a screenshot.png "What does this error mean?"
  parley ask -a main.go -a go.mod "Why does this not build?"
  parley ask -m gpt-4o -m llama3 --ordered "Quicksort or mergesort?"
  parley ask --role reviewer --param temperature=0.2 -a app.log "What failed?"
  cat notes.txt | parley ask --usage --no-save "Summarise it" > summary.md
  parley ask --tools --allow-tool everything/get-sum "What is 2 + 3?"`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			models, err := f.compareModels()
			if err != nil {
				return err
			}
			if len(models) > 1 {
				return a.askCompare(cmd.Context(), f, models, strings.Join(args, " "))
			}
			if len(models) == 1 {
				f.model = models[0]
			}
			return a.ask(cmd.Context(), f, strings.Join(args, " "))
		},
	}
	f.register(cmd.Flags())
	return cmd
}

func (a *app) ask(ctx context.Context, f askFlags, prompt string) error {
	text, cfg, h, err := a.askStart(ctx, f, prompt)
	if err != nil {
		return err
	}
	defer h.close()
	plan, err := a.planAsk(ctx, cfg, f, h)
	if err != nil {
		return err
	}
	clients := chat.NewClients(func(model string) (*api.Client, error) { return a.client(cfg, model) })
	if _, err := clients.Get(plan.model); err != nil {
		return err
	}
	// The same engine as the chat: Begin checks and starts the turn,
	// Complete takes what streams and closes it.
	tools, servers, err := a.askTools(ctx, cfg, f)
	if err != nil {
		return err
	}
	if servers != nil {
		defer servers.Close()
	}
	eng := chat.New(ctx, chat.Options{Clients: clients, Now: a.env.Now, Flush: h.flushFunc(), FlushWait: flushTimeout, Mask: a.console.mask, Tools: tools, ImageDir: a.askImageDir(cfg, f)})
	conv := h.conversation(a.env.Now, plan.system(f.system, cfg))
	if plan.role != nil {
		conv.SetRole(plan.role.Name) // kept with the session
	}
	eng.Replace(conv)
	reply, err := a.beginTurn(eng, &conversation.UserInput{Text: text, Attachments: plan.atts}, plan.turnOptions(f.system, cfg, h.continued()))
	if err != nil {
		return usage(err)
	}
	a.warnDropped(reply.Turn)
	out := newReplyWriter(a.env.Stdout, f.raw)
	res, thought, err := a.receive(ctx, eng, reply, f, out)
	h.close()
	// A reply that failed half-way still ends its line, so the error on
	// stderr starts on a line of its own; one that never started writes
	// nothing.
	if err == nil || out.wrote {
		if cerr := out.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("could not write the reply to stdout (%w)", cerr)
		}
	}
	if err != nil {
		return err
	}
	a.sayImages(res.Images)
	if !out.wrote && len(res.Images.Kept) == 0 {
		a.console.say(noAnswerNote(thought, f.reasoning || a.env.StderrIsTerminal))
	}
	if note := finishNote(res.FinishReason); note != "" {
		a.console.say(note)
	}
	if f.usage {
		fmt.Fprintln(a.env.Stderr, usageLine(res.Usage))
	}
	return nil
}

// receive sends the request and takes the reply: the answer to out, the
// reasoning to stderr as ask's help says (the engine keeps both in the
// conversation, which stores the reasoning apart).
// It also returns how many bytes of reasoning came.
func (a *app) receive(ctx context.Context, eng *chat.Engine, reply *chat.Reply, f askFlags, out *replyWriter) (chat.Result, int, error) {
	think := newReasoningWriter(a.env.Stderr, f.raw, a.env.StderrIsTerminal)
	showThinking := f.reasoning || a.env.StderrIsTerminal
	thought := 0
	on := chat.Handlers{
		Text: func(t string) {
			if t != "" {
				think.Close() // the answer begins: the reasoning's lines end
			}
			out.Write(t)
		},
		Reasoning: func(r string) {
			thought += len(r)
			if showThinking {
				think.Write(r)
			}
		},
		Tool: func(c conversation.ToolCallMade) {
			if line := toolLine(c); line != "" {
				think.Close()
				a.console.say(line)
			}
		},
		Refused: func() { a.console.say("this model does not take tools, so the question was sent again without them") },
	}
	res, err := eng.Complete(ctx, reply, !f.noStream, on)
	think.Close()
	return res, thought, err
}

// noAnswerNote says why stdout got nothing: the model finished without
// text, with or without reasoning (shown on stderr, or not).
func noAnswerNote(thought int, shown bool) string {
	switch {
	case thought == 0:
		return "the model finished without an answer: it sent no text"
	case shown:
		return "the model finished without an answer: it sent only its reasoning, shown above"
	}
	return fmt.Sprintf("the model finished without an answer: it sent only its reasoning (%d bytes), which goes to stderr with --reasoning", thought)
}

// beginTurn starts the turn. Earlier turns' images would be refused by a
// model without vision: then their text goes, the images stay behind.
func (a *app) beginTurn(eng *chat.Engine, user *conversation.UserInput, topts conversation.TurnOptions) (*chat.Reply, error) {
	reply, err := eng.Begin(user, topts)
	var ve *conversation.VisionError
	if errors.As(err, &ve) && ve.Earlier {
		topts.WithoutImages = true
		reply, err = eng.Begin(user, topts)
		if err == nil {
			a.console.warn(fmt.Sprintf("%s cannot see images, so the images of earlier messages in this session are not sent (their text is)", topts.Model))
		}
	}
	return reply, err
}

// warnDropped says which earlier messages the request leaves out.
func (a *app) warnDropped(turn *conversation.Turn) {
	switch n := len(turn.Built.Dropped); {
	case n == 1:
		a.console.warn("an earlier message of this session that got no answer (its reply failed or was stopped before any text) is not sent again")
	case n > 1:
		a.console.warn(fmt.Sprintf("%d earlier messages of this session that got no answer (their replies failed or were stopped before any text) are not sent again", n))
	}
}

// askText joins piped stdin and the prompt argument.
func (a *app) askText(ctx context.Context, prompt string) (string, error) {
	var piped string
	if !a.env.StdinIsTerminal && a.env.Stdin != nil {
		b, err := readAll(ctx, io.LimitReader(a.env.Stdin, maxStdin+1))
		if err != nil {
			return "", err
		}
		if len(b) > maxStdin {
			return "", usagef("stdin holds more than %s; send a smaller text", bytesize.Format(maxStdin))
		}
		piped = strings.TrimRight(string(b), "\n")
	}
	prompt = strings.TrimSpace(prompt)
	switch {
	case strings.TrimSpace(piped) == "" && prompt == "":
		return "", usagef("nothing to ask; give a prompt, e.g. parley ask \"why is the sky blue?\", or pipe text on stdin")
	case strings.TrimSpace(piped) == "":
		return prompt, nil
	case prompt == "":
		return piped, nil
	default:
		return piped + "\n\n" + prompt, nil
	}
}

// readAll reads stdin until EOF, or until ctx ends: a stdin that never
// closes (an inherited pipe, ssh without a terminal) must not make Ctrl-C
// useless. A read cannot be interrupted, so on cancel the reading
// goroutine is left blocked; the process is about to exit.
func readAll(ctx context.Context, r io.Reader) ([]byte, error) {
	type result struct {
		b   []byte
		err error
	}
	done := make(chan result, 1)
	go func() {
		b, err := io.ReadAll(r)
		done <- result{b, err}
	}()
	select {
	case res := <-done:
		if res.err != nil {
			return nil, fmt.Errorf("could not read stdin (%w)", res.err)
		}
		return res.b, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// finishNote explains a finish reason that means the reply is incomplete.
func finishNote(reason string) string {
	switch reason {
	case "length":
		return "the reply was cut off because it reached the model's length limit."
	case "content_filter":
		return "the gateway's content filter stopped the reply."
	}
	return ""
}

func usageLine(u *api.Usage) string {
	if u == nil {
		return "usage: the gateway did not report token usage for this reply."
	}
	return fmt.Sprintf("usage: %d prompt + %d completion = %d tokens", u.PromptTokens, u.CompletionTokens, u.TotalTokens)
}

// askStart does what every ask does first, one model or several: check
// the flags, read the question (stdin and PROMPT), load the config and
// open the history. The caller closes the history.
func (a *app) askStart(ctx context.Context, f askFlags, prompt string) (string, *config.Config, *askHistory, error) {
	if err := f.history.check(); err != nil {
		return "", nil, nil, err
	}
	if err := checkToolFlags(f); err != nil {
		return "", nil, nil, err
	}
	text, err := a.askText(ctx, prompt)
	if err != nil {
		return "", nil, nil, err
	}
	cfg, err := a.loadGatewayConfig("ask")
	if err != nil {
		return "", nil, nil, err
	}
	h, err := a.openHistory(ctx, cfg, f.history)
	if err != nil {
		return "", nil, nil, err
	}
	return text, cfg, h, nil
}
