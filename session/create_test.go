package session

import (
	"context"
	"testing"
)

// TestANewDatabaseIsCheapToCreate: the schema of a new database is
// created in one transaction on small pages, so the first `parley ask`
// in a new data folder writes it once rather than seven commits' worth
// of 4 KB pages twice (with the WAL's checkpoint): 315 KB before, for a
// schema that is the fixed cost of the first reply.
func TestANewDatabaseIsCheapToCreate(t *testing.T) {
	start, measured := bytesWritten()
	s, err := Open(context.Background(), t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	end, _ := bytesWritten()
	if !measured {
		t.Skip("the kernel does not report bytes written here")
	}
	t.Logf("a new database: %d KB written", (end-start)/1000)
	if n := end - start; n > 64<<10 {
		t.Fatalf("creating a new database wrote %d KiB", n>>10)
	}
}
