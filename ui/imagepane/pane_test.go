package imagepane

import (
	"slices"
	"testing"
	"time"
)

func keysOf(p *Pane) []string {
	var out []string
	for _, it := range p.items {
		out = append(out, it.Key)
	}
	return out
}

func TestSetItemsOrder(t *testing.T) {
	same := base.Add(time.Hour)
	cases := []struct {
		name  string
		items []Item
		want  []string
	}{
		{"empty", nil, nil},
		{"newest first", []Item{item("old", 0), item("new", 9), item("mid", 5)}, []string{"new", "mid", "old"}},
		{"equal times keep the given order", []Item{
			{Key: "x", Created: same}, {Key: "y", Created: same}, {Key: "z", Created: same},
		}, []string{"x", "y", "z"}},
		{"zero times go last", []Item{{Key: "nodate"}, item("dated", 1)}, []string{"dated", "nodate"}},
		{"a repeated key is listed once", []Item{item("a", 1), item("b", 2), item("a", 3)}, []string{"b", "a"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := newPane(t, "/home/u")
			p.setItems(c.items)
			if got := keysOf(p); !slices.Equal(got, c.want) {
				t.Fatalf("order %q, want %q", got, c.want)
			}
			if p.Len() != len(c.want) {
				t.Fatalf("Len %d, want %d", p.Len(), len(c.want))
			}
			it, ok := p.Selected()
			if ok != (len(c.want) > 0) || ok && it.Key != c.want[0] {
				t.Fatalf("Selected = %q, %v; want the newest", it.Key, ok)
			}
		})
	}
}

func TestSelectionKeptAcrossSetItems(t *testing.T) {
	cases := []struct {
		name   string
		second []Item
		want   string
	}{
		{"a newer image arrives", []Item{item("a", 1), item("b", 2), item("c", 3), item("d", 4)}, "b"},
		{"the list is reordered", []Item{item("c", 3), item("a", 1), item("b", 2)}, "b"},
		{"the selected image is gone: the same row", []Item{item("a", 1), item("c", 3)}, "a"},
		{"the selected image was the last row and is gone", []Item{item("c", 3)}, "c"},
		{"everything is gone", nil, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := newPane(t, "/home/u")
			p.setItems([]Item{item("a", 1), item("b", 2), item("c", 3)})
			if !p.Select("b") {
				t.Fatal("Select(b) = false")
			}
			p.setItems(c.second)
			it, ok := p.Selected()
			if it.Key != c.want || ok != (c.want != "") {
				t.Fatalf("selected %q, %v; want %q", it.Key, ok, c.want)
			}
		})
	}
}

func TestSelect(t *testing.T) {
	p := newPane(t, "/home/u")
	p.setItems(many(50))
	if p.Select("nope") {
		t.Fatal("Select of an unknown key = true")
	}
	if it, _ := p.Selected(); it.Key != "k049" {
		t.Fatalf("an unknown key moved the selection to %q", it.Key)
	}
	p.render(120, 20, nil, true)
	if !p.Select("k000") {
		t.Fatal("Select(k000) = false")
	}
	if it, _ := p.Selected(); it.Key != "k000" {
		t.Fatalf("selected %q", it.Key)
	}
	if !rowShown(p.render(120, 20, nil, true), "k000.png") {
		t.Fatal("the list did not scroll to the selected image")
	}
}

func TestItemDisplayName(t *testing.T) {
	cases := []struct {
		it   Item
		want string
	}{
		{Item{Path: "/a/b/fox.png", Name: "ignored"}, "fox.png"},
		{Item{Path: "/data/blobs/ab/ab12cd", Name: "fox.png", Kept: true}, "fox.png"},
		{Item{Path: "/data/blobs/ab/ab12cd", Kept: true}, "ab12cd"},
		{Item{Name: "clipboard 14:02"}, "clipboard 14:02"},
		{Item{}, "image"},
	}
	for _, c := range cases {
		if got := c.it.DisplayName(); got != c.want {
			t.Errorf("DisplayName(%+v) = %q, want %q", c.it, got, c.want)
		}
	}
}
