package overlay

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
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

// Limits on what a probed server may send: the reply is untrusted.
const (
	maxProbeBody   = 1 << 20
	maxProbeModels = 500
)

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
	// Models are the ids the server listed, in its order, exactly as sent
	// (they are untrusted: sanitise before display; the setup screen does).
	Models []string
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
func ProbeCmd(ctx context.Context, client *http.Client, candidates []Candidate, timeout time.Duration, gen int) tea.Cmd {
	return func() tea.Msg {
		return ProbedMsg{Gen: gen, Results: Probe(ctx, client, candidates, timeout)}
	}
}

// Probe sends GET <base>/models to every candidate at once, each bounded by
// timeout (DefaultProbeTimeout when zero), and returns one result per
// candidate in the candidates' order. A nil client means a direct
// (proxy-free) client that follows no redirects. It returns when every
// request has finished or ctx is done.
func Probe(ctx context.Context, client *http.Client, candidates []Candidate, timeout time.Duration) []ProbeResult {
	if client == nil {
		client = loopbackClient()
	}
	if timeout <= 0 {
		timeout = DefaultProbeTimeout
	}
	results := make([]ProbeResult, len(candidates))
	var wg sync.WaitGroup
	for i, c := range candidates {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = probeOne(ctx, client, c, timeout)
		}()
	}
	wg.Wait()
	return results
}

// loopbackClient talks to loopback directly: a proxy from the environment
// has no business seeing these requests, and a local server that redirects
// elsewhere is not one to offer.
func loopbackClient() *http.Client {
	return &http.Client{
		Transport: &http.Transport{
			Proxy:             nil,
			DialContext:       (&net.Dialer{Timeout: DefaultProbeTimeout}).DialContext,
			DisableKeepAlives: true,
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

func probeOne(ctx context.Context, client *http.Client, c Candidate, timeout time.Duration) ProbeResult {
	res := ProbeResult{Candidate: c}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	url := strings.TrimRight(c.BaseURL, "/") + "/models"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		res.Err = fmt.Errorf("probe %s: %w", url, err)
		res.Reason = "not a valid URL"
		return res
	}
	req.Header.Set("Accept", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		res.Err = fmt.Errorf("probe %s: %w", url, err)
		res.Reason = "not running"
		if errors.Is(err, context.DeadlineExceeded) {
			res.Reason = "no answer within " + timeout.String()
		}
		return res
	}
	defer resp.Body.Close()
	// From here on something answered; whatever is wrong makes it Invalid.
	res.Status = ProbeInvalid
	if resp.StatusCode != http.StatusOK {
		res.Err = fmt.Errorf("probe %s: answered %s", url, resp.Status)
		res.Reason = "answered " + resp.Status
		return res
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxProbeBody+1))
	if err != nil {
		res.Err = fmt.Errorf("probe %s: reading the reply: %w", url, err)
		res.Reason = "the reply broke off"
		return res
	}
	if len(body) > maxProbeBody {
		res.Err = fmt.Errorf("probe %s: the model list is larger than %d bytes", url, maxProbeBody)
		res.Reason = "the reply is too large"
		return res
	}
	models, err := parseModelList(body)
	if err != nil {
		res.Err = fmt.Errorf("probe %s: %w", url, err)
		res.Reason = "answered, but not with a model list"
		return res
	}
	res.Status = ProbeFound
	res.Models = models
	return res
}

// errNotModelList is returned for a reply that is not {"data":[{"id":...}]}.
var errNotModelList = errors.New("the reply is not an OpenAI-style model list")

// parseModelList reads the OpenAI list shape {"object":"list","data":[{"id":...}]}.
// A reply without a data array (an HTML page, some other JSON) is not a
// model list; an empty array is (a server with nothing loaded yet).
func parseModelList(body []byte) ([]string, error) {
	var list struct {
		Data *[]struct {
			ID json.RawMessage `json:"id"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &list); err != nil {
		return nil, errNotModelList
	}
	if list.Data == nil {
		return nil, errNotModelList
	}
	ids := make([]string, 0, len(*list.Data))
	seen := make(map[string]bool)
	for _, m := range *list.Data {
		var id string
		if json.Unmarshal(m.ID, &id) != nil || strings.TrimSpace(id) == "" || seen[id] {
			continue
		}
		seen[id] = true
		ids = append(ids, id)
		if len(ids) == maxProbeModels {
			break
		}
	}
	return ids, nil
}
