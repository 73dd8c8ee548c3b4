package slash

import "parley/ui/list"

// FilterCompletions keeps the candidates whose Value matches word, best
// first, with the UI's one matcher (list.Rank): the whole value, then
// values that start with word, then values that contain it (earlier
// first), then values that contain its letters in order; ties keep the
// given order, and an empty word keeps everything. Complete functions
// over a fixed list (model names, themes) can return
// FilterCompletions(arg.Word, all).
func FilterCompletions(word string, all []Completion) []Completion {
	if word == "" {
		return all
	}
	ms := list.Rank(word, len(all), func(i int) string { return all[i].Value }, nil)
	out := make([]Completion, len(ms))
	for i, m := range ms {
		out[i] = all[m.Index]
	}
	return out
}
