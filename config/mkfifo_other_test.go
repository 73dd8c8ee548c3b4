//go:build !unix

package config

import "errors"

func mkfifo(string) error { return errors.New("named pipes are a unix feature") }
