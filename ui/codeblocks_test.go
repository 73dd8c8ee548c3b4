package ui

import (
	"reflect"
	"testing"
)

func TestCodeBlocks(t *testing.T) {
	md := "Intro\n\n```go\nfmt.Println(1)\n```\n\ntext ``inline`` not a fence\n\n  ~~~~\n  indented\n    more\n  ~~~~\n\n````md\n```\nnested\n```\n````\n\n```\nunclosed\nstill"
	got := codeBlocks(md)
	want := []string{
		"fmt.Println(1)\n",
		"indented\n  more\n",
		"```\nnested\n```\n",
		"unclosed\nstill\n",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("codeBlocks:\n got %q\nwant %q", got, want)
	}
	if got := codeBlocks("no code here\n``not a fence``"); len(got) != 0 {
		t.Errorf("got %q", got)
	}
}
