// pause is the pod sandbox process of the offline kind node image (registry.k8s.io/pause:<version>
// cannot be pulled without a registry). Like upstream's build/pause/linux/pause.c it does nothing
// but wait: it exits on SIGINT or SIGTERM (as PID 1 of its pid namespace it would otherwise ignore
// them) and reaps zombies when the pod shares its pid namespace.
package main

import (
	"os"
	"os/signal"
	"syscall"
)

func main() {
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM, syscall.SIGCHLD)
	for sig := range signals {
		if sig == syscall.SIGCHLD {
			for {
				var status syscall.WaitStatus
				if pid, err := syscall.Wait4(-1, &status, syscall.WNOHANG, nil); pid <= 0 || err != nil {
					break
				}
			}
			continue
		}
		os.Exit(0)
	}
}
