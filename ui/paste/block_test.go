package paste

import (
	"testing"

	"parley/api"
)

func TestBlockText(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"a\r\nb\r\n", "a\nb\n"},
		{"a\rb", "a\nb"},
		{"\tindented\n", "\tindented\n"},
		{"bell\a and \x1b[31mred\x1b[0m", "bell and [31mred[0m"},
		{"bad \xff byte", "bad  byte"},
		{"ünïcode ✓", "ünïcode ✓"},
	} {
		if got := BlockText(tc.in); got != tc.want {
			t.Errorf("BlockText(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestBlockNames(t *testing.T) {
	have := []api.Attachment{{Name: "pasted-1.txt"}, {Name: "shot.png"}, {Name: "pasted-3.txt"}}
	b := Block("x\r\ny\n", "pasted", have)
	if b.Name != "pasted-2.txt" || !b.IsText() || string(b.Data) != "x\ny\n" || b.Lines != 2 || b.Bytes != 4 || b.SHA256 != api.HashBytes([]byte("x\ny\n")) {
		t.Fatalf("block %+v", b)
	}
	if b := Block("x", "editor", have); b.Name != "editor-1.txt" {
		t.Fatalf("the editor's block is %q", b.Name)
	}
}
