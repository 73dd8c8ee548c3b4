package api

import "context"

// ListModels asks GET /models for the ids the gateway offers, in the
// gateway's order, in any shape ListModelInfo reads, with one request
// (ListModelInfo may make a second).
func (c *Client) ListModels(ctx context.Context) ([]string, error) {
	list, err := c.listModels(ctx)
	if err != nil {
		return nil, err
	}
	return ModelIDs(list), nil
}
