//go:build !unix

package signals

import "os"

// terminationSignals: only the interrupt exists everywhere.
var terminationSignals = []os.Signal{os.Interrupt}

// No job control outside unix: the chat never stops the process.
var tstp, cont os.Signal

func exitCode(os.Signal) int { return 130 }

func signalName(s os.Signal) string { return s.String() }

func canStop() bool { return false }

func stopJob() {}

func jobControlled() bool { return false }
