package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"parley/api"
	"parley/conversation"
	"parley/internal/bytesize"
)

// maxStdin bounds what `parley ask` reads from a pipe, so a runaway
// producer fails with a message instead of exhausting memory.
const maxStdin = 32 << 20

type askFlags struct {
	model    string
	attach   []string
	noStream bool
	usage    bool
	raw      bool
	system   string
	history  historyFlags
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

Each question and its answer are kept as a new session in the history (see
"parley sessions"), unless --no-save is given or the config says history = false.
--continue adds the turn to the most recent session, --session ID to a given one;
the session's model and system prompt carry on unless -m or -s say otherwise.`,
		Example: `  parley ask "What is the capital of Peru?"
  parley ask --continue "And of Chile?"
  parley ask -a screenshot.png "What does this error mean?"
  cat notes.txt | parley ask --usage --no-save "Summarise in three bullets" > summary.md`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.ask(cmd.Context(), f, strings.Join(args, " "))
		},
	}
	fl := cmd.Flags()
	fl.StringVarP(&f.model, "model", "m", "", "model to ask (default: default_model from the config)")
	fl.StringArrayVarP(&f.attach, "attach", "a", nil, "attach an image file or http(s) URL (repeatable)")
	fl.BoolVar(&f.noStream, "no-stream", false, "wait for the whole reply instead of streaming it")
	fl.BoolVar(&f.usage, "usage", false, "print the token usage on stderr after the reply")
	fl.BoolVar(&f.raw, "raw", false, "write the reply exactly as received, control characters included")
	fl.StringVarP(&f.system, "system", "s", "", "system prompt for this question (default: the session's, or system_prompt from the config)")
	f.history.register(fl)
	return cmd
}

func (a *app) ask(ctx context.Context, f askFlags, prompt string) error {
	if err := f.history.check(); err != nil {
		return err
	}
	text, err := a.askText(ctx, prompt)
	if err != nil {
		return err
	}
	cfg, err := a.loadGatewayConfig("ask")
	if err != nil {
		return err
	}
	h, err := a.openHistory(ctx, cfg, f.history)
	if err != nil {
		return err
	}
	defer h.close()
	model, err := a.chatModel(ctx, cfg, cmp.Or(strings.TrimSpace(f.model), strings.TrimSpace(h.model())))
	if err != nil {
		return err
	}
	catalog := cfg.Catalog().WithListed(a.knownModels(cfg))
	// A model without vision is refused before any file is read: that is
	// the first thing the user has to change.
	if len(f.attach) > 0 {
		if err := catalog.Require(model, api.CapVision); err != nil {
			return usage(err)
		}
	}
	atts, err := a.attachAll(f.attach, cfg.AttachLimits())
	if err != nil {
		return err
	}
	client, err := a.client(cfg, model)
	if err != nil {
		return err
	}
	conv := h.conversation(a.env.Now, cmp.Or(strings.TrimSpace(f.system), strings.TrimSpace(cfg.SystemPrompt)))
	// The same turn path as the chat: Begin checks and starts the turn,
	// Receive takes what streams, Close ends it.
	topts := conversation.TurnOptions{Model: model, Catalog: catalog, MaxHistory: cfg.MaxHistoryMessages}
	if h.continued() {
		// -s on a continued session applies to this question only.
		topts.SystemPrompt = strings.TrimSpace(f.system)
	}
	turn, err := a.beginTurn(conv, &conversation.UserInput{Text: text, Attachments: atts}, topts)
	if err != nil {
		return usage(err)
	}
	// The question is on disk before it goes out.
	h.flush(ctx)
	a.warnDropped(turn)
	req := turn.Chat
	out := newReplyWriter(a.env.Stdout, f.raw)
	onText := func(t string) {
		out.Write(t)
		conv.Receive(turn, t, nil, "")
	}
	var res askResult
	if f.noStream {
		req.StreamOptions = nil
		res, err = askOnce(ctx, client, req, onText)
	} else {
		res, err = askStream(ctx, client, req, onText)
	}
	conv.Receive(turn, "", res.usage, res.finishReason)
	closeErr := err
	switch {
	case err == nil:
	case errors.Is(err, context.Canceled):
		closeErr = context.Canceled
	default:
		// What is stored is what the user sees: the key masked.
		closeErr = errors.New(a.mask(err.Error()))
	}
	_ = conv.Close(turn, closeErr)
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
	if note := finishNote(res.finishReason); note != "" {
		a.say(note)
	}
	if f.usage {
		fmt.Fprintln(a.env.Stderr, usageLine(res.usage))
	}
	return nil
}

// beginTurn starts the turn. Earlier turns' images would be refused by a
// model without vision: then their text goes, the images stay behind.
func (a *app) beginTurn(conv *conversation.Conversation, user *conversation.UserInput, topts conversation.TurnOptions) (*conversation.Turn, error) {
	turn, err := conv.Begin(user, topts)
	var ve *conversation.VisionError
	if errors.As(err, &ve) && ve.Earlier {
		topts.WithoutImages = true
		turn, err = conv.Begin(user, topts)
		if err == nil {
			a.warn(fmt.Sprintf("%s cannot see images, so the images of earlier messages in this session are not sent (their text is)", topts.Model))
		}
	}
	return turn, err
}

// warnDropped says which earlier messages the request leaves out.
func (a *app) warnDropped(turn *conversation.Turn) {
	switch n := len(turn.Built.Dropped); {
	case n == 1:
		a.warn("an earlier message of this session whose reply failed is not sent again")
	case n > 1:
		a.warn(fmt.Sprintf("%d earlier messages of this session whose replies failed are not sent again", n))
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

type askResult struct {
	finishReason string
	usage        *api.Usage
}

func askOnce(ctx context.Context, c *api.Client, req api.ChatRequest, onText func(string)) (askResult, error) {
	resp, err := c.Chat(ctx, req)
	if resp == nil {
		return askResult{}, err
	}
	// A reply over max_reply_bytes comes with its text so far: shown and
	// kept like a stream's.
	onText(resp.Text())
	if err != nil {
		return askResult{}, err
	}
	var res askResult
	if len(resp.Choices) > 0 {
		res.finishReason = resp.Choices[0].FinishReason
	}
	res.usage = resp.Usage
	return res, nil
}

func askStream(ctx context.Context, c *api.Client, req api.ChatRequest, onText func(string)) (askResult, error) {
	s, err := c.ChatStream(ctx, req)
	if err != nil {
		return askResult{}, err
	}
	defer s.Close()
	var res askResult
	for {
		ev, err := s.Recv()
		if errors.Is(err, io.EOF) {
			return res, nil
		}
		if err != nil {
			return res, err
		}
		onText(ev.Text)
		if ev.FinishReason != "" {
			res.finishReason = ev.FinishReason
		}
		if ev.Usage != nil {
			res.usage = ev.Usage
		}
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
