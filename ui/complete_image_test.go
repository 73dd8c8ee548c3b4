package ui

import (
	"context"
	"testing"

	"parley/ui/slash"
)

// --size completes from what the model accepts (the one named by --model,
// else the image model); --model from the models that can make images.
func TestImageCompletion(t *testing.T) {
	env := commandEnv{
		imageModels: []string{"dall-e-3", "gpt-image-1"},
		imageModel:  "gpt-image-1",
		sizes: map[string][]string{
			"gpt-image-1": {"1024x1024", "1536x1024", "1024x1536", "auto"},
			"dall-e-3":    {"1024x1024", "1792x1024", "1024x1792"},
		},
	}
	values := func(cs []slash.Completion) []string {
		var out []string
		for _, c := range cs {
			out = append(out, c.Value)
		}
		return out
	}
	ctx := context.Background()
	if got := values(completeImage(ctx, slash.Arg{Flag: "size", Line: "a fox --size ", Word: ""}, env, env.imageModels)); len(got) != 4 || got[3] != "auto" {
		t.Fatalf("sizes of the image model: %v", got)
	}
	if got := values(completeImage(ctx, slash.Arg{Flag: "size", Line: "a fox --model dall-e-3 --size 17", Word: "17"}, env, env.imageModels)); len(got) != 2 || got[0] != "1792x1024" || got[1] != "1024x1792" {
		t.Fatalf("sizes of dall-e-3: %v", got)
	}
	if got := values(completeImage(ctx, slash.Arg{Flag: "model", Word: "da"}, env, env.imageModels)); len(got) != 1 || got[0] != "dall-e-3" {
		t.Fatalf("models: %v", got)
	}
	if got := completeImage(ctx, slash.Arg{Word: "a"}, env, env.imageModels); got != nil {
		t.Fatalf("the prompt was completed: %v", got)
	}
}
