//go:build race

package driver

func init() { Race = true }
