package paste

// String names a kind in test failures.
func (k Kind) String() string {
	switch k {
	case Paths:
		return "paths"
	case URL:
		return "url"
	}
	return "text"
}
