package overlay

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"parley/api"
)

// Candidate is a well-known local OpenAI-compatible server the setup screen
// looks for.
type Candidate struct {
	Name    string // shown to the user: "Ollama"
	BaseURL string // ends with /v1: "http://127.0.0.1:11434/v1"
}

// DefaultCandidates returns the loopback servers probed on first run.
func DefaultCandidates() []Candidate {
	return []Candidate{
		{Name: "Ollama", BaseURL: "http://127.0.0.1:11434/v1"},
		{Name: "LM Studio", BaseURL: "http://127.0.0.1:1234/v1"},
		{Name: "llama.cpp", BaseURL: "http://127.0.0.1:8080/v1"},
	}
}

// DefaultProbeTimeout bounds each probe request: a loopback server that is
// up answers in milliseconds, and the user is waiting.
const DefaultProbeTimeout = 800 * time.Millisecond

// maxProbeModels bounds the model ids kept from a probed server (the
// client bounds the reply's size).
const maxProbeModels = 500

// ProbeStatus says what a candidate did when probed.
type ProbeStatus int

const (
	// ProbeDown: nothing answered (connection refused, timeout).
	ProbeDown ProbeStatus = iota
	// ProbeFound: it answered GET /models with an OpenAI-shaped model list.
	ProbeFound
	// ProbeInvalid: something answered, but not like an OpenAI-compatible
	// server (an error status, HTML, malformed JSON).
	ProbeInvalid
)

// ProbeResult is one candidate's outcome.
type ProbeResult struct {
	Candidate
	Status ProbeStatus
	// Models are the chat models the server listed, in its order, exactly
	// as sent (they are untrusted: sanitise before display; the setup
	// screen does). Image-only models (api.Capabilities.ImageOnly: dall-e-3,
	// gpt-image-1) are left out: the setup chooses who answers the chat.
	Models []string
	// ImageModels counts the image-only models left out of Models.
	ImageModels int
	// Reason is a short user-facing phrase for a candidate that is not
	// usable ("not running", "answered 404 Not Found"); "" when Found.
	Reason string
	// Err is the full error behind Reason (nil when Found).
	Err error
}

// ProbedMsg carries the results of one probe run back to Setup.Update. Gen
// ties it to the run that asked, so a stale result after a re-probe is
// ignored.
type ProbedMsg struct {
	Gen     int
	Results []ProbeResult
}

// ProbeCmd probes the candidates concurrently and returns a ProbedMsg. It
// touches no model state.
func ProbeCmd(ctx context.Context, candidates []Candidate, timeout time.Duration, gen int) tea.Cmd {
	return func() tea.Msg {
		return ProbedMsg{Gen: gen, Results: Probe(ctx, candidates, timeout)}
	}
}

// Probe asks every candidate for its models at once with the gateway
// client (api.Client.ListModels, as the chat would), each bounded by
// timeout (DefaultProbeTimeout when zero), without retries and without
// following redirects, and returns one result per candidate in the
// candidates' order. It returns when every request has finished or ctx is
// done. Loopback addresses never go through a proxy.
func Probe(ctx context.Context, candidates []Candidate, timeout time.Duration) []ProbeResult {
	if timeout <= 0 {
		timeout = DefaultProbeTimeout
	}
	results := make([]ProbeResult, len(candidates))
	var wg sync.WaitGroup
	for i, c := range candidates {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = probeOne(ctx, c, timeout)
		}()
	}
	wg.Wait()
	return results
}

func probeOne(ctx context.Context, c Candidate, timeout time.Duration) ProbeResult {
	res := ProbeResult{Candidate: c}
	client, err := api.NewClient(api.ClientConfig{
		BaseURL:     c.BaseURL,
		UserAgent:   "parley-setup",
		Timeouts:    api.Timeouts{Connect: timeout, Header: timeout},
		Retry:       api.RetryPolicy{MaxRetries: -1},
		NoRedirects: true,
	})
	if err != nil {
		res.Err = fmt.Errorf("probe %s: %w", c.BaseURL, err)
		res.Reason = "not a valid URL"
		return res
	}
	defer client.CloseIdleConnections()
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	ids, err := client.ListModels(ctx)
	var apiErr *api.APIError
	var connErr *api.ConnectionError
	var timeoutErr *api.TimeoutError
	switch {
	case err == nil:
	case errors.As(err, &apiErr):
		// Something answered, but not with a model list.
		res.Status, res.Err = ProbeInvalid, err
		res.Reason = "answered " + apiErr.Status
		if apiErr.Status == "" {
			res.Reason = "answered with an error"
		}
		return res
	case errors.As(err, &timeoutErr) || errors.Is(err, context.DeadlineExceeded):
		res.Err, res.Reason = err, "no answer within "+timeout.String()
		return res
	case errors.As(err, &connErr) || ctx.Err() != nil:
		res.Err, res.Reason = err, "not running"
		return res
	default:
		res.Status, res.Err = ProbeInvalid, err
		res.Reason = "answered, but not with a model list"
		return res
	}
	res.Status = ProbeFound
	seen := make(map[string]bool)
	for _, id := range ids {
		if strings.TrimSpace(id) == "" || seen[id] {
			continue
		}
		seen[id] = true
		if caps, _ := api.BuiltinCapabilities(id); caps.ImageOnly() {
			res.ImageModels++
			continue
		}
		res.Models = append(res.Models, id)
		if len(res.Models) == maxProbeModels {
			break
		}
	}
	return res
}
