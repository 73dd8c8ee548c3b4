package ui

import (
	"regexp"
	"strings"
	"testing"
)

// A start-up banner with less room than its problem needs ends with the
// pointer to the notices pane, whole, whatever the height: when the
// pointer needs more lines than the heading leaves, the heading gives way,
// and on a screen too short for it the pointer's short form shows.
func TestStartBannerPointerIsNeverCut(t *testing.T) {
	want := `theme "nope" does not exist (did you mean nord?), so auto is used: f3 opens the theme picker, /theme NAME chooses one`
	pointer := regexp.MustCompile(`… (\d+ more lines?: f4 or /notices shows them all|more: f4 or /notices)`)
	for _, w := range []int{24, 30} {
		for ht := 10; ht <= 24; ht++ {
			h := newHarness(t, w, ht, func(o *Options) { o.Theme = "nope" })
			flat := strings.Join(strings.Fields(h.screen()), " ")
			if !strings.Contains(flat, "nope") && !strings.Contains(flat, "more") {
				continue // no room for a banner at all
			}
			if !strings.Contains(flat, want) && !pointer.MatchString(flat) {
				t.Errorf("%dx%d: the problem is cut without the whole pointer:\n%s", w, ht, h.screen())
			}
		}
	}
}
