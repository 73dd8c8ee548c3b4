package config

// history reads the keys of the sessions store: history and auto_title.
func (l *loader) history(doc map[string]any) error {
	for _, k := range []struct {
		key string
		dst *bool
	}{{"history", &l.c.History}, {"auto_title", &l.c.AutoTitle}} {
		v, err := l.boolean(doc, "", k.key)
		if err != nil {
			return err
		}
		if v != nil {
			*k.dst = *v
		}
	}
	return nil
}
