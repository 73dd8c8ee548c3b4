package conversation

import (
	"errors"
	"fmt"

	"parley/termsafe"
)

// MaxCompare is how many models one compare asks at once: four columns of
// at least 50 cells fill a 200-cell screen, and each stream costs the
// gateway a request.
const MaxCompare = 4

// Skipped is a model a compare left out, and why: it cannot take what the
// message carries (its images).
type Skipped struct {
	Model string
	Err   error
}

// Sentence says which model was left out and why, in one sentence.
func (s Skipped) Sentence() string {
	return fmt.Sprintf("%s was left out of the compare: %v", termsafe.Sanitize(s.Model), s.Err)
}

// ErrCompareModels refuses a compare without models or with too many.
var ErrCompareModels = fmt.Errorf("a compare asks 2 to %d models at once: name them, as in /compare model-a model-b", MaxCompare)

// ErrCompareTwice refuses a compare that names one model twice.
var ErrCompareTwice = errors.New("a compare names each model once")

// BeginCompare starts one turn answered by several models at once, one
// reply per TurnOptions, in order. With user set the message is added
// first (as Begin adds it); without, the last user message is answered
// again beside its reply. Every reply is a child of the one user message,
// so the replies are alternatives of each other, and every request is
// built from the same path: the same history, system prompt and
// attachments; what differs per model is in its options (its params,
// its max_tokens field). A model that cannot see the images the request
// would carry is left out and listed in skipped; when every model is, or
// the turn cannot start at all, nothing changes. The active path ends at
// the first reply: going on without a pick goes on from it.
func (c *Conversation) BeginCompare(user *UserInput, opts []TurnOptions) (turns []*Turn, skipped []Skipped, err error) {
	if len(opts) == 0 || len(opts) > MaxCompare {
		return nil, nil, ErrCompareModels
	}
	seen := map[string]bool{}
	for _, o := range opts {
		if err := c.canTurn(o); err != nil {
			return nil, nil, err
		}
		if seen[o.Model] {
			return nil, nil, ErrCompareTwice
		}
		seen[o.Model] = true
	}
	var p turnPlan
	if user != nil {
		p, err = c.tree.planInput(user)
	} else {
		p, err = c.tree.planRetry()
	}
	if err != nil {
		return nil, nil, err
	}
	var keep []TurnOptions
	for _, o := range opts {
		if err := p.checkVision(user, o, o.requestOptions(), c.system); err != nil {
			skipped = append(skipped, Skipped{Model: o.Model, Err: err})
			continue
		}
		keep = append(keep, o)
	}
	if len(keep) == 0 {
		return nil, skipped, skipped[0].Err
	}
	c.branchUnder(p.base, p.old)
	if user != nil {
		if p.edit && p.base == c.tree.root && !c.titled {
			c.title = ""
		}
		if _, err := c.AddUser(user.Text, user.Attachments); err != nil {
			return nil, skipped, err
		}
	}
	question := c.tree.leaf()
	var first *node
	for i, o := range keep {
		if i > 0 {
			// Each reply is a child of the question: the path goes back
			// to it (a ChangeSwitch), so every append extends the path a
			// listener last read.
			c.switchPath(pathTo(question))
		}
		built := c.BuildRequest(o.requestOptions())
		id := c.startReply(o.Model)
		if first == nil {
			first = c.tree.leaf()
		}
		turns = append(turns, newTurn(id, built, o))
	}
	c.switchPath(pathTo(first))
	return turns, skipped, nil
}
