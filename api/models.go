package api

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
)

// ListModels asks GET /models for the ids the gateway offers, in the
// gateway's order. Besides OpenAI's {"data":[{"id":...}]} it accepts a bare
// array of such objects and {"models":[...]} with "id" or "name".
func (c *Client) ListModels(ctx context.Context) ([]string, error) {
	data, err := c.roundTrip(ctx, &apiRequest{
		method:      "GET",
		url:         c.endpoint("/models"),
		accept:      "application/json",
		credentials: true,
	}, maxModelsReply)
	if err != nil {
		return nil, err
	}
	return c.modelIDs(data)
}

// modelIDs reads the ids of a model list's body.
func (c *Client) modelIDs(data []byte) ([]string, error) {
	var err error
	type entry struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	}
	var list []entry
	data = bytes.TrimSpace(data)
	if len(data) > 0 && data[0] == '[' {
		err = json.Unmarshal(data, &list)
	} else {
		var reply struct {
			Data   []entry `json:"data"`
			Models []entry `json:"models"`
		}
		err = json.Unmarshal(data, &reply)
		list = append(reply.Data, reply.Models...)
	}
	if err != nil {
		return nil, fmt.Errorf("the gateway's model list is not valid JSON (%w): check the base URL %s", err, c.baseStr)
	}
	ids := make([]string, 0, len(list))
	for _, e := range list {
		if id := cmp.Or(e.ID, e.Name); id != "" {
			ids = append(ids, id)
		}
	}
	return ids, nil
}
