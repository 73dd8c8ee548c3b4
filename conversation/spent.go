package conversation

import "parley/api"

// Spent is what every reply of the conversation cost at the prices price
// gives: every branch counts (each alternative, each column of a
// compare, was paid for). ok is false when no reply's cost is known: a
// price or a usage missing shows no cost, never a cost of zero. A
// conversation restored from a window counts the replies it holds.
func (v TreeView) Spent(price func(model string) *api.Price) (total float64, ok bool) {
	for _, n := range v.t.all {
		if n.msg.Role != api.RoleAssistant || n.msg.Usage == nil {
			continue
		}
		if cost, known := price(n.msg.Model).Cost(n.msg.Usage); known {
			total += cost
			ok = true
		}
	}
	return total, ok
}
