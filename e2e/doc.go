// Package e2e holds parley's end-to-end tests: the real binary, built once
// per test run, runs inside a private tmux server against the in-process
// fake gateway (api/apitest), and the tests drive it the way a user does,
// with keys sent by tmux, and check what the terminal shows and how it is
// left.
//
// The package has no code of its own; everything lives in _test.go files.
// Without tmux on PATH every test skips and says how to install it (.ci/run
// does so); with -short the tests skip too, because they build the binary.
//
// How a test sees the terminal:
//
//   - capture-pane shows the screen (the grid tmux keeps for the pane);
//   - pane format variables (#{alternate_on}, #{cursor_flag},
//     #{mouse_any_flag}, #{keypad_flag}, #{pane_title}, ...) show the modes
//     and the title, read while the pane is still alive: parley runs under
//     a small shell wrapper that, once parley has exited, prints its exit
//     status and whether the tty modes (stty -g) are as before, and waits,
//     so the modes are those parley left behind (tmux resets some of them,
//     such as the cursor flag, when a pane dies). The wrapper then exits
//     with parley's status, read back from #{pane_dead_status};
//   - pipe-pane -O records every byte parley writes, for what tmux 3.3 has
//     no format variable for (bracketed paste, focus reporting, the kitty
//     keyboard stack) and for the injection test, which checks that no
//     control sequence from the gateway reached the terminal as bytes.
//
// Race detector: when the tests themselves are built with -race (as in
// `go test -race ./...`), the binary is built with -race as well and its
// race reports are written to files (GORACE log_path) that each test checks
// when it ends, so the end-to-end flows also hunt data races in the app.
// Without -race the binary is a normal build.
package e2e
