package session

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// A conversation held in memory (the demo, --no-save) is exported with
// the time of its newest message as "Updated", as a stored one is: not
// its start again.
func TestExportSnapshotUpdatedIsTheLastMessage(t *testing.T) {
	_, conv := treeExport(t)
	started := time.Date(2026, 11, 30, 4, 43, 0, 0, time.UTC)
	snap := conv.Snapshot()
	snap.Messages = slices.Clone(snap.Messages)
	for i := range snap.Messages {
		snap.Messages[i].Created = started.Add(time.Duration(i) * 30 * time.Second)
	}
	last := started.Add(time.Duration(len(snap.Messages)-1) * 30 * time.Second)
	dir := t.TempDir()
	md, js := filepath.Join(dir, "x.md"), filepath.Join(dir, "x.json")
	if err := ExportSnapshotFile(snap, conv.ID(), started, md, ExportOptions{Format: FormatMarkdown, Location: time.UTC}); err != nil {
		t.Fatal(err)
	}
	if err := ExportSnapshotFile(snap, conv.ID(), started, js, ExportOptions{Format: FormatJSON}); err != nil {
		t.Fatal(err)
	}
	text, _ := os.ReadFile(md)
	for _, want := range []string{"- Created: 2026-11-30 04:43 UTC\n", "- Updated: " + last.Format("2006-01-02 15:04 MST") + "\n"} {
		if !strings.Contains(string(text), want) {
			t.Errorf("the Markdown header lacks %q:\n%s", want, text)
		}
	}
	var doc jsonSession
	data, _ := os.ReadFile(js)
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if got, _ := time.Parse(time.RFC3339, doc.Updated); !got.Equal(last) {
		t.Errorf("JSON updated %q, want %v", doc.Updated, last)
	}
}
