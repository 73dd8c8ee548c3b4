package apitest_test

import (
	"fmt"
	"io"
	"net/http"
	"strings"

	"parley/api/apitest"
)

// A scripted stream with gateway quirks, read with plain net/http.
func ExampleServer_Enqueue() {
	gw := apitest.NewServer()
	defer gw.Close()
	gw.Enqueue(apitest.Reply{
		Text:       "Hi!",
		DeltaRunes: 2,
		Quirks:     apitest.Quirks{NoRoleChunk: true, NoFinishReason: true, CommentsBefore: 1},
	})

	body := `{"model":"llama3","messages":[{"role":"user","content":"hello"}],"stream":true}`
	req, _ := http.NewRequest(http.MethodPost, gw.URL()+"/chat/completions", strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+apitest.DefaultAPIKey)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	for _, line := range strings.Split(string(b), "\n") {
		// Show the framing and each event's choices, not its id and time.
		if _, choices, ok := strings.Cut(line, `"choices":`); ok {
			line = "data: ..." + choices
		}
		if line != "" {
			fmt.Println(line)
		}
	}
	last, _ := gw.LastRequest()
	fmt.Println(last.Chat.Model, last.Chat.Messages[0].Content.Text)
	// Output:
	// : keep-alive
	// data: ...[{"index":0,"delta":{"content":"Hi"}}]}
	// data: ...[{"index":0,"delta":{"content":"!"}}]}
	// data: [DONE]
	// llama3 hello
}
