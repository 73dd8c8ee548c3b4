package imagegen

import "parley/api"

// MaxAsked bounds the number of images asked of a model whose own maximum
// is not known (Plan then refuses more than one, saying to set max_n).
const MaxAsked = 10

// MostImages is the largest number of images `parley image -n` and the
// chat's --n take for model: what it makes per request when that is known
// (known is then true), else MaxAsked. Both say a number out of 1..most
// the same way.
func MostImages(cat *api.Catalog, model string) (most int, known bool) {
	if model == "" {
		return MaxAsked, false
	}
	if caps := cat.Lookup(model).Caps; caps.MaxN > 0 {
		return caps.MaxImages(), true
	}
	return MaxAsked, false
}
