package config

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
)

// ExpandPath expands a path written in the config file: a leading ~ or ~/
// becomes the home directory, and $NAME or ${NAME} the variable's value.
// A variable that is unset or empty is an error naming it, and so is ~
// when the home directory is not known: "$UNSET/x" would otherwise become
// "/x", and parley would write at the root of the file system.
func (c *Config) ExpandPath(p string) (string, error) {
	if p == "~" || strings.HasPrefix(p, "~/") {
		if c.env.HomeDir == "" {
			return "", errors.New("it starts with ~ but the home directory is not known; write the path out")
		}
		p = ExpandHome(p, c.env.HomeDir)
	}
	var missing []string
	out := os.Expand(p, func(k string) string {
		v := c.env.get(k)
		if k == "HOME" && c.env.HomeDir != "" {
			v = c.env.HomeDir
		}
		if v == "" && !slices.Contains(missing, k) {
			missing = append(missing, k)
		}
		return v
	})
	switch len(missing) {
	case 0:
		return out, nil
	case 1:
		return "", fmt.Errorf("it uses $%s, which is not set or is empty; set it, or write the path out", missing[0])
	}
	return "", fmt.Errorf("it uses $%s, which are not set or are empty; set them, or write the path out", strings.Join(missing, ", $"))
}
