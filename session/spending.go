package session

import (
	"context"
	"strings"

	"parley/api"
)

// Tokens are the tokens one model's replies used in a session, as the
// gateway reported them.
type Tokens struct {
	Model              string
	Prompt, Completion int
}

// maxSpendingIDs bounds the sessions one Spending call sums (SQLite's
// limit on a statement's parameters is 32,766).
const maxSpendingIDs = 500

// Spending sums, for each session of ids, the tokens its replies used per
// model: every reply of every branch (each alternative, each column of a
// compare, was paid for); a reply the gateway reported no usage for adds
// nothing. Sessions without any reported usage are absent.
func (s *Store) Spending(ctx context.Context, ids []string) (map[string][]Tokens, error) {
	if err := s.Opened(ctx); err != nil {
		return nil, err
	}
	out := map[string][]Tokens{}
	for len(ids) > 0 {
		chunk := ids[:min(len(ids), maxSpendingIDs)]
		ids = ids[len(chunk):]
		args := make([]any, len(chunk))
		for i, id := range chunk {
			args[i] = id
		}
		rows, err := s.db.QueryContext(ctx, `SELECT session_id, model, SUM(prompt_tokens), SUM(completion_tokens)
			FROM messages WHERE role = 'assistant' AND prompt_tokens IS NOT NULL
			AND session_id IN (?`+strings.Repeat(",?", len(chunk)-1)+`)
			GROUP BY session_id, model`, args...)
		if err != nil {
			return nil, classify(s.path, "sum the sessions' usage", err)
		}
		for rows.Next() {
			var id string
			var t Tokens
			if err := rows.Scan(&id, &t.Model, &t.Prompt, &t.Completion); err != nil {
				rows.Close()
				return nil, classify(s.path, "sum the sessions' usage", err)
			}
			out[id] = append(out[id], t)
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, classify(s.path, "sum the sessions' usage", err)
		}
	}
	return out, nil
}

// Cost is what the tokens cost at the prices price gives: false when no
// model of them has a known price.
func Cost(tokens []Tokens, price func(model string) *api.Price) (float64, bool) {
	var total float64
	known := false
	for _, t := range tokens {
		if c, ok := price(t.Model).Cost(&api.Usage{PromptTokens: t.Prompt, CompletionTokens: t.Completion}); ok {
			total += c
			known = true
		}
	}
	return total, known
}
