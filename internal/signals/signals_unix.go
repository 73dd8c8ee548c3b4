//go:build unix

package signals

import (
	"os"
	"os/signal"
	"syscall"

	"golang.org/x/sys/unix"
)

// terminationSignals end the process: ctrl+c outside raw mode or kill -INT,
// kill and service managers, and a terminal that hangs up.
var terminationSignals = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP}

// tstp and cont are the job-control signals the chat cooperates with.
var (
	tstp os.Signal = syscall.SIGTSTP
	cont os.Signal = syscall.SIGCONT
)

// exitCode is the shell's status for a process ended by s.
func exitCode(s os.Signal) int {
	if n, ok := s.(syscall.Signal); ok {
		return 128 + int(n)
	}
	return 128 + int(syscall.SIGINT)
}

func signalName(s os.Signal) string {
	switch s {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP"
	}
	return s.String()
}

// stopJob stops this process's job (its process group) with SIGSTOP, which
// cannot be caught, and returns when the job is continued. It waits for
// SIGCONT explicitly: the kernel stops the process's threads one by one,
// and the one that sent SIGSTOP can return from kill and run on for a
// moment (taking the terminal back into raw mode) before it is stopped.
func stopJob() {
	c := make(chan os.Signal, 1)
	signal.Notify(c, syscall.SIGCONT)
	defer signal.Stop(c)
	if err := syscall.Kill(0, syscall.SIGSTOP); err != nil {
		return
	}
	<-c
}

// canStop reports whether SIGTSTP may stop this process at all: a process
// started with SIGTSTP ignored (nohup-style launchers) never stops, and
// would wait for a SIGCONT that never comes.
func canStop() bool { return !signal.Ignored(syscall.SIGTSTP) }

// jobControlled reports whether a job-control shell can stop and
// continue this process. The kernel discards SIGTSTP sent to an orphaned
// process group, and the process group of the session leader (a program
// started as a terminal's own command, by exec from a shell, or by a
// shell without job control) is always orphaned: stopping would not
// happen, and the chat would hang waiting for a SIGCONT.
func jobControlled() bool {
	sid, err := unix.Getsid(0)
	if err != nil {
		return false
	}
	return unix.Getpgrp() != sid
}
