package homepath

import "testing"

func TestShort(t *testing.T) {
	for _, c := range []struct{ path, home, want string }{
		{"/home/ann/Pictures/parley", "/home/ann", "~/Pictures/parley"},
		{"/home/ann", "/home/ann", "~"},
		{"/home/ann/", "/home/ann", "~/"},
		{"/home/ann/x", "/home/ann/", "~/x"},
		{"/home/anna/x", "/home/ann", "/home/anna/x"},
		{"/etc/parley", "/home/ann", "/etc/parley"},
		{"/home/ann/x", "", "/home/ann/x"},
		{"/x", "/", "/x"},
	} {
		if got := Short(c.path, c.home); got != c.want {
			t.Errorf("Short(%q, %q) = %q, want %q", c.path, c.home, got, c.want)
		}
	}
}
