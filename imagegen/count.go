package imagegen

import (
	"fmt"

	"parley/api"
)

// MaxAsked bounds the number of images asked before a model is chosen
// (the chat's /image without --model, which asks for one): Plan then
// holds the number to the chosen model's.
const MaxAsked = 10

// MostImages is the largest number of images `parley image -n` and the
// chat's --n take for model: what it makes per request when that is known
// (its max_n; known is then true), else 1, as Plan holds it to (a model
// that may make more says so with max_n). Before a model is chosen ("")
// it is MaxAsked.
func MostImages(cat *api.Catalog, model string) (most int, known bool) {
	if model == "" {
		return MaxAsked, false
	}
	caps := cat.Lookup(model).Caps
	return caps.MaxImages(), caps.MaxN > 0
}

// CheckCount refuses a number of images n out of 1..MostImages, in one
// sentence naming the option (flag: "-n", "--n"); with the advice to set
// max_n when the model's number is not known.
func CheckCount(cat *api.Catalog, model, flag string, n int) error {
	most, known := MostImages(cat, model)
	switch {
	case n >= 1 && n <= most:
		return nil
	case known:
		return fmt.Errorf("%s must be from 1 to %d, not %d (what %s makes per request)", flag, most, n, model)
	case model == "" || n < 1:
		return fmt.Errorf("%s must be from 1 to %d, not %d", flag, most, n)
	}
	where := "in your parley config file"
	if p := cat.ConfigPath(); p != "" {
		where = "in " + p
	}
	return fmt.Errorf("%s must be 1, not %d, while how many images %s makes per request is not known; if it makes %d, set max_n = %d under [[models]] name = %q %s",
		flag, n, model, n, n, model, where)
}
