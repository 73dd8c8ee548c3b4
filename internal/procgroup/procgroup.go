// Package procgroup runs a helper command (api_key_cmd, a clipboard tool,
// the tmux probe) in a process group of its own, so that stopping it stops
// everything it started: a shell script or a pipeline would otherwise leave
// children running that hold its output open, one more for every try.
package procgroup
