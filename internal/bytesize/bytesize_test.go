package bytesize

import "testing"

func TestFormat(t *testing.T) {
	for n, want := range map[int64]string{
		0: "0 B", 999: "999 B", 1000: "1.0 KB", 1500: "1.5 KB", 9_949: "9.9 KB", 245_000: "245 KB",
		999_499: "999 KB", 999_500: "1.0 MB", 1 << 20: "1.0 MB", 4_600_000: "4.6 MB", 18_400_000: "18.4 MB",
		128 << 20: "134.2 MB", 999_949_999: "999.9 MB", 999_950_000: "1.0 GB", 3_000_000_000: "3.0 GB",
	} {
		if got := Format(n); got != want {
			t.Errorf("Format(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestPairAndDigits(t *testing.T) {
	for _, c := range []struct {
		size, limit int64
		s, l        string
	}{
		{1_500_000, 1_000_000, "1.5 MB", "1.0 MB"},
		{1_015, 1_000, "1,015 bytes", "1,000 bytes"},
		{1_000_400, 1_000_000, "1,000,400 bytes", "1,000,000 bytes"},
	} {
		if s, l := Pair(c.size, c.limit); s != c.s || l != c.l {
			t.Errorf("Pair(%d, %d) = %q, %q; want %q, %q", c.size, c.limit, s, l, c.s, c.l)
		}
	}
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", 13107: "13,107", -1234567: "-1,234,567"} {
		if got := Digits(n); got != want {
			t.Errorf("Digits(%d) = %q, want %q", n, got, want)
		}
	}
}
